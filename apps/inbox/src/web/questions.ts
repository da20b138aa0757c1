// The questions of a round as the page shows them, and the answers a submitted page gives them. Inputs are named
// by position (`q0.f2`: question 0, field 2), never by the server's keys or field names, so no name from a server
// can collide with another or with the page's own fields. Everything submitted is checked here, whatever the
// page's script checked already: a browser without it, or a crafted request, gets the same answers.
import { contentProblems, type FormField, formFields, valueProblem } from '@boomerang/demo-kit/forms';
import type {
  CreateMessageRequestParams,
  ElicitRequestFormParams,
  ElicitResult,
  InputRequest,
  InputResponses,
  Root,
} from '@boomerang/protocol';

/** One question of a round, ready to render and to read back. */
export type QuestionView =
  | {
      readonly kind: 'form';
      readonly index: number;
      readonly key: string;
      readonly message: string;
      readonly fields: readonly FormField[];
    }
  | {
      readonly kind: 'url';
      readonly index: number;
      readonly key: string;
      readonly message: string;
      readonly url: string;
    }
  | {
      readonly kind: 'sampling';
      readonly index: number;
      readonly key: string;
      readonly params: CreateMessageRequestParams;
    }
  | { readonly kind: 'roots'; readonly index: number; readonly key: string; readonly roots: readonly Root[] };

/** Each question of `inputRequests`, in order, with the roots a person may share. */
export function questionViews(
  inputRequests: Readonly<Record<string, InputRequest>>,
  roots: readonly Root[],
): QuestionView[] {
  return Object.entries(inputRequests).map(([key, request], index): QuestionView => {
    if (request.method === 'sampling/createMessage')
      return { kind: 'sampling', index, key, params: request.params };
    if (request.method === 'roots/list') return { kind: 'roots', index, key, roots };
    const params = request.params;
    if (params.mode === 'url') return { kind: 'url', index, key, message: params.message, url: params.url };
    const form = params as ElicitRequestFormParams;
    return { kind: 'form', index, key, message: form.message, fields: formFields(form.requestedSchema) };
  });
}

/** The name of a question's input (`q0.f2`, `q0.action`, `q1.text`, `q2.roots`). */
export const inputName = (question: number, part: string): string => `q${question}.${part}`;
/** The element id of a question's input (`q0-f2`, …). */
export const inputId = (question: number, part: string): string => `q${question}-${part}`;

/** What the person pressed: send the answers, refuse every form and URL, or end the flow unanswered. */
export type Intent = 'accept' | 'decline' | 'cancel' | 'drop';

/** One thing wrong with a submitted page, pointing at the input to fix. */
export interface Problem {
  /** The id of the input (or group) it is about. */
  readonly id: string;
  /** What it is called on the page. */
  readonly label: string;
  readonly message: string;
}

/** True when every question of the round is an elicitation (so the round can be declined or cancelled whole). */
export function onlyElicitations(questions: readonly QuestionView[]): boolean {
  return questions.every((q) => q.kind === 'form' || q.kind === 'url');
}

/** `datetime-local` gives `2026-07-28T09:30`: the page labels it UTC, so it is sent as `2026-07-28T09:30:00Z`. */
export function fromLocalDateTime(value: string): string {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(\.\d{1,3})?)?$/.exec(value);
  return match === null ? value : `${match[1]}${match[2] ?? ':00'}Z`;
}

/** An RFC 3339 date-time as a `datetime-local` value in UTC (`2026-07-28T09:30:00`), or '' when it is none. */
export function toLocalDateTime(value: unknown): string {
  if (typeof value !== 'string') return '';
  const time = Date.parse(value);
  return Number.isNaN(time) ? '' : new Date(time).toISOString().slice(0, 19);
}

/** One field's value as typed (`undefined`: left out), before any check. */
function readField(field: FormField, form: URLSearchParams, name: string): unknown {
  if (field.kind === 'choices') return form.getAll(name);
  const raw = form.get(name);
  if (field.kind === 'boolean') {
    // A checkbox (fields with a default) sends `true` or nothing; yes/no radios send `true`, `false` or nothing.
    if (field.default !== undefined) return raw === 'true';
    return raw === 'true' ? true : raw === 'false' ? false : raw === null ? undefined : raw;
  }
  const value = raw?.trim() ?? '';
  if (value === '') return undefined;
  if (field.kind === 'number' || field.kind === 'integer') return Number(value);
  if (field.format === 'date-time') return fromLocalDateTime(value);
  return value;
}

function formAnswer(
  question: Extract<QuestionView, { kind: 'form' }>,
  form: URLSearchParams,
  problems: Problem[],
) {
  const content: Record<string, unknown> = {};
  question.fields.forEach((field, j) => {
    const value = readField(field, form, inputName(question.index, `f${j}`));
    if (value !== undefined) content[field.name] = value;
  });
  const found = contentProblems(question.fields, content);
  question.fields.forEach((field, j) => {
    const message = found[field.name];
    if (message !== undefined)
      problems.push({ id: inputId(question.index, `f${j}`), label: field.label, message });
  });
  return { action: 'accept', content } as ElicitResult;
}

/** The action chosen for one elicitation of a round with several questions (`accept` unless a radio says else). */
function actionOf(question: QuestionView, form: URLSearchParams, several: boolean): ElicitResult['action'] {
  if (!several) return 'accept';
  const chosen = form.get(inputName(question.index, 'action'));
  return chosen === 'decline' || chosen === 'cancel' ? chosen : 'accept';
}

/**
 * The answers a submitted page gives `questions` for `intent` (`accept`, `decline` or `cancel`; `drop` is not an
 * answer), and every problem of it. Decline and cancel apply to every question, so they are only for rounds
 * of elicitations (a sampling request or a roots request cannot be declined: drop the flow instead); with
 * several questions each elicitation also has its own accept / decline / cancel choice. Never throws.
 */
export function readAnswers(
  questions: readonly QuestionView[],
  form: URLSearchParams,
  intent: Exclude<Intent, 'drop'>,
  person: string,
): { responses: InputResponses; problems: Problem[] } {
  const responses: InputResponses = {};
  const problems: Problem[] = [];
  if (intent !== 'accept') {
    if (!onlyElicitations(questions)) {
      problems.push({
        id: 'actions',
        label: 'Decline / Cancel',
        message: 'this round also asks for a reply or roots, which cannot be declined: drop the flow instead',
      });
      return { responses, problems };
    }
    for (const question of questions) responses[question.key] = { action: intent };
    return { responses, problems };
  }
  const several = questions.length > 1;
  for (const question of questions) {
    switch (question.kind) {
      case 'form': {
        const action = actionOf(question, form, several);
        responses[question.key] = action === 'accept' ? formAnswer(question, form, problems) : { action };
        break;
      }
      case 'url':
        responses[question.key] = { action: actionOf(question, form, several) };
        break;
      case 'sampling': {
        const text = form.get(inputName(question.index, 'text'))?.trim() ?? '';
        if (text === '') {
          problems.push({
            id: inputId(question.index, 'text'),
            label: 'Reply',
            message: 'write the reply, please',
          });
        }
        responses[question.key] = {
          role: 'assistant',
          content: { type: 'text', text },
          model: `human:${person}`,
          stopReason: 'endTurn',
        };
        break;
      }
      case 'roots': {
        const picked = new Set(form.getAll(inputName(question.index, 'roots')));
        responses[question.key] = { roots: question.roots.filter((root) => picked.has(root.uri)) };
        break;
      }
    }
  }
  return { responses, problems };
}

/** The value a field shows: what was submitted (after a refused submit), else its default when that fits. */
export function shownValue(field: FormField, submitted: URLSearchParams | undefined, name: string): unknown {
  if (submitted !== undefined) return field.kind === 'choices' ? submitted.getAll(name) : submitted.get(name);
  const fallback = field.default;
  if (fallback === undefined || valueProblem(field, fallback) !== undefined) return undefined;
  return fallback;
}
