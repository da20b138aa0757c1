// The scripted answers of a test client: which answer each question a server asks gets, by its inputRequests key
// or by matching the question, and the error that names a question nobody scripted.
import type { InputCallbacks, InputRequestContext } from '@boomerang/client';
import { argumentError, type InputRequest, type InputResponse } from '@boomerang/protocol';
import { INPUT_REQUEST_KINDS, inputRequestKind } from '@boomerang/protocol/internal';

/**
 * How one question is answered: the answer itself (an `ElicitResult`, a `CreateMessageResult`, a
 * `ListRootsResult`; see `accept`, `assistantMessage`, `roots`), or a function of the question and its context
 * (its `key`, its `round`, the call that asked) that returns one. The client validates it like any callback's
 * answer, so a wrong answer fails the call with a `callback-failed` `ClientError`.
 */
export type Answer =
  | InputResponse
  | ((request: InputRequest, ctx: InputRequestContext) => InputResponse | Promise<InputResponse>);

/**
 * A condition on a question, for {@link AnswerRule.when}: the question, and its context (its `key` and `round`; the
 * tool or prompt that asked is `ctx.name`, the resource `ctx.uri`).
 */
export type AnswerCondition = (request: InputRequest, ctx: InputRequestContext) => boolean;

/**
 * One scripted answer and the questions it answers: every filter given must hold (none given: every question).
 * Rules are tried in order; the first that matches and has uses left answers.
 */
export interface AnswerRule {
  /**
   * The `inputRequests` key the server chose for the question. A key without a dot also matches the keys that
   * start with it and a dot: `r0` matches McpServer's `r0.<digest>`.
   */
  readonly key?: string | undefined;
  /** The kind of question: `elicitation/create`, `sampling/createMessage` or `roots/list`. */
  readonly method?: InputRequest['method'] | undefined;
  /**
   * Matched against the question's text: an elicitation's `message`, or the text blocks of a sampling request's
   * messages (joined by newlines). A string matches when the text contains it; a `RegExp` when it tests true.
   * A `roots/list` question has no text, so a rule with `question` never answers one.
   */
  readonly question?: string | RegExp | undefined;
  /** Only in this round of a call (1 for the call's first `input_required`). */
  readonly round?: number | undefined;
  /** Any other condition on the question. */
  readonly when?: AnswerCondition | undefined;
  /** How many questions this rule answers before the next matching rule takes over (default: no limit). */
  readonly times?: number | undefined;
  /** The answer. */
  readonly answer: Answer;
}

/**
 * The scripted answers of a test client: an object from `inputRequests` key to {@link Answer} (the question under
 * that key gets that answer, in every round and call; `r0` also answers McpServer's `r0.<digest>`, see
 * {@link AnswerRule.key}), or a list of {@link AnswerRule}s.
 */
export type ScriptedAnswers = Readonly<Record<string, Answer>> | readonly AnswerRule[];

/** The kinds of question a client can declare it answers; see `TestClientOptions.declare`. */
export type QuestionKind = keyof InputCallbacks;

interface Rule {
  readonly key: string | undefined;
  readonly method: InputRequest['method'] | undefined;
  readonly question: string | RegExp | undefined;
  readonly round: number | undefined;
  readonly when: AnswerRule['when'];
  readonly answer: Answer;
  left: number;
}

const METHODS: readonly string[] = Object.keys(INPUT_REQUEST_KINDS);

/** Checks `answers` and returns the client callbacks that answer from it, for the kinds in `declare`. */
export function scriptedCallbacks(
  answers: ScriptedAnswers | undefined,
  declare: readonly QuestionKind[],
): InputCallbacks {
  const rules = toRules(answers);
  const answerOne = async (request: InputRequest, ctx: InputRequestContext): Promise<InputResponse> => {
    const rule = rules.find((r) => r.left > 0 && matches(r, request, ctx));
    if (rule === undefined) throw unanswered(request, ctx);
    rule.left--;
    return typeof rule.answer === 'function' ? rule.answer(request, ctx) : rule.answer;
  };
  const callbacks: {
    elicitation?: NonNullable<InputCallbacks['elicitation']>;
    sampling?: NonNullable<InputCallbacks['sampling']>;
    roots?: NonNullable<InputCallbacks['roots']>;
  } = {};
  if (declare.includes('elicitation')) {
    callbacks.elicitation = async (params, ctx) =>
      (await answerOne({ method: 'elicitation/create', params }, ctx)) as never;
  }
  if (declare.includes('sampling')) {
    callbacks.sampling = async (params, ctx) =>
      (await answerOne({ method: 'sampling/createMessage', params }, ctx)) as never;
  }
  if (declare.includes('roots')) {
    callbacks.roots = async (ctx) => (await answerOne({ method: 'roots/list' }, ctx)) as never;
  }
  return callbacks;
}

function toRules(answers: ScriptedAnswers | undefined): Rule[] {
  if (answers === undefined) return [];
  if (Array.isArray(answers)) return answers.map((rule, i) => toRule(rule, `answers[${i}]`));
  if (typeof answers !== 'object' || answers === null) {
    throw argumentError('answers', 'an object of answers by key or a list of answer rules', answers);
  }
  return Object.entries(answers).map(([key, answer]) => {
    checkAnswer(answer, `answers.${key}`);
    return {
      key,
      method: undefined,
      question: undefined,
      round: undefined,
      when: undefined,
      answer,
      left: Infinity,
    };
  });
}

function toRule(rule: AnswerRule, name: string): Rule {
  if (typeof rule !== 'object' || rule === null) throw argumentError(name, 'an answer rule', rule);
  const { key, method, question, round, when, times, answer } = rule;
  checkAnswer(answer, `${name}.answer`);
  if (key !== undefined && typeof key !== 'string') throw argumentError(`${name}.key`, 'a string', key);
  if (method !== undefined && !METHODS.includes(method)) {
    throw new RangeError(
      `"${name}.method" expected one of ${METHODS.join(', ')}, got ${JSON.stringify(method)}`,
    );
  }
  if (question !== undefined && typeof question !== 'string' && !(question instanceof RegExp)) {
    throw argumentError(`${name}.question`, 'a string or a RegExp', question);
  }
  if (when !== undefined && typeof when !== 'function')
    throw argumentError(`${name}.when`, 'a function', when);
  checkCount(round, `${name}.round`);
  checkCount(times, `${name}.times`);
  return { key, method, question, round, when, answer, left: times ?? Infinity };
}

function checkAnswer(answer: unknown, name: string): void {
  if (typeof answer === 'function') return;
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    throw argumentError(name, 'an answer object or a function returning one', answer);
  }
}

function checkCount(value: unknown, name: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number') throw argumentError(name, 'a positive integer', value);
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`"${name}" expected a positive integer, got ${value}`);
  }
}

function matches(rule: Rule, request: InputRequest, ctx: InputRequestContext): boolean {
  if (rule.key !== undefined && !keyMatches(rule.key, ctx.key)) return false;
  if (rule.method !== undefined && rule.method !== request.method) return false;
  if (rule.round !== undefined && rule.round !== ctx.round) return false;
  if (rule.question !== undefined) {
    const text = questionText(request);
    if (text === undefined) return false;
    if (
      typeof rule.question === 'string' ? !text.includes(rule.question) : !testRegExp(rule.question, text)
    ) {
      return false;
    }
  }
  return rule.when === undefined || rule.when(request, ctx);
}

/**
 * Whether a scripted key names the question under `key`: the same key, or, for a scripted key without a dot, the
 * part of `key` before its first dot. McpServer asks under `r<n>.<digest>` (the digest names the exact question),
 * so `r0` answers its first resolver's question however it is worded.
 */
export function keyMatches(scripted: string, key: string): boolean {
  return scripted === key || (!scripted.includes('.') && key.startsWith(`${scripted}.`));
}

/** `RegExp#test` without the `lastIndex` a global or sticky expression keeps between calls. */
function testRegExp(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  return pattern.test(text);
}

/** An elicitation's message, a sampling request's text blocks (joined by newlines); none for `roots/list`. */
export function questionText(request: InputRequest): string | undefined {
  return inputRequestKind(request.method)?.text(request.params ?? {});
}

/** The key to suggest scripting: McpServer's `r<n>.<digest>` as `r<n>`, which survives a rewording. */
function scriptKey(key: string): string {
  return /^r\d+\.[A-Za-z0-9_-]{22}$/.test(key) ? key.slice(0, key.indexOf('.')) : key;
}

/** The error of a question no scripted answer matches: it names the question and how to script an answer. */
function unanswered(request: InputRequest, ctx: InputRequestContext): Error {
  const target = ctx.name ?? ctx.uri;
  const call = target === undefined ? ctx.method : `${ctx.method} "${target}"`;
  const text = questionText(request);
  const shown = text === undefined ? '' : `: ${JSON.stringify(text)}`;
  return new Error(
    `No scripted answer for ${request.method} "${ctx.key}" (round ${ctx.round} of ${call})${shown}. ` +
      `Script one in the test client's answers, by key ({ ${JSON.stringify(scriptKey(ctx.key))}: … }) or by question ` +
      `([{ question: …, answer: … }]).`,
  );
}
