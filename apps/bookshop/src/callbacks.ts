// The demo client's answers: scripted (the default) or typed by a person at the terminal (`--interactive`).
// Both sets print what they did, so each round shows the question, who answered and how.
import { pathToFileURL } from 'node:url';
import type { InputCallbacks, SamplingCallback } from '@boomerang/client';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitResult,
  ListRootsResult,
  PrimitiveSchemaDefinition,
} from '@boomerang/protocol';
import { confirmUrl, fillForm, type Prompter } from './form.js';
import { DEMO_ACCOUNTS } from './sign-in.js';

/** The model name the fake LLM reports. */
export const FAKE_MODEL = 'fake-llm-1';

function textOf(message: CreateMessageRequestParams['messages'][number] | undefined): string {
  if (message === undefined) return '';
  const blocks = Array.isArray(message.content) ? message.content : [message.content];
  return blocks.map((block) => (block.type === 'text' ? block.text : '')).join(' ');
}

/**
 * A stand-in for the client's LLM: deterministic, local, and small enough to read. It answers the last user
 * message; for a blurb request it writes a shelf-talker for the quoted title.
 */
export function fakeLlm(params: CreateMessageRequestParams): CreateMessageResult {
  const prompt = textOf(params.messages.at(-1));
  const title = /"([^"]+)"/.exec(prompt)?.[1];
  const text =
    title === undefined
      ? `(fake LLM) I read ${prompt.length} characters and have nothing to add.`
      : `"${title}": the book our staff keep pressing into strangers' hands.`;
  return { role: 'assistant', content: { type: 'text', text }, model: FAKE_MODEL, stopReason: 'endTurn' };
}

/** The roots this client shares: the working directory. */
export function rootsOf(cwd: string): ListRootsResult {
  const uri = pathToFileURL(cwd.endsWith('/') ? cwd : `${cwd}/`).href;
  return { roots: [{ uri, name: cwd.split('/').filter(Boolean).at(-1) ?? '/' }] };
}

/** The answers the scripted client gives, by form field name; other fields take their default. */
export const SCRIPTED_ANSWERS: Readonly<Record<string, unknown>> = {
  confirm: true,
  notify: ['email', 'sms'],
  shipping: 'express',
  copies: 2,
  binding: 'hardcover',
  wrap: true,
  note: 'Happy birthday!',
};

/** What a scripted client puts in a field it has no answer for: the default, else a neutral value. */
function fallback(field: PrimitiveSchemaDefinition): unknown {
  const f = field as Record<string, unknown>;
  if (f.default !== undefined) return f.default;
  if (f.type === 'boolean') return false;
  if (f.type === 'number' || f.type === 'integer') return typeof f.minimum === 'number' ? f.minimum : 0;
  if (f.type === 'array') return [];
  if (Array.isArray(f.enum)) return f.enum[0];
  if (Array.isArray(f.oneOf)) return (f.oneOf[0] as { const?: unknown } | undefined)?.const;
  return '';
}

/** Options of {@link scriptedCallbacks}. */
export interface ScriptedOptions {
  /** Answers by field name (default {@link SCRIPTED_ANSWERS}). */
  readonly answers?: Readonly<Record<string, unknown>>;
  /** Refuse every elicitation (form and URL) this way instead of accepting. */
  readonly refuse?: 'decline' | 'cancel' | undefined;
  /**
   * The account the scripted user signs in with on a URL elicitation's page (default alice's, of
   * `DEMO_ACCOUNTS`); `null`: agree to open the URL but never sign in (the tool must not believe the accept).
   */
  readonly signInAs?: { readonly account: string; readonly password: string } | null;
  /** The working directory shared as the client's root. */
  readonly cwd: string;
}

/**
 * The non-interactive client: accepts every form with {@link SCRIPTED_ANSWERS} (fields it has no answer for
 * take their default; optional ones without a default are left out), agrees to open every URL and signs in on
 * its page as `signInAs` (what a user would do in the browser, out of band), samples the
 * fake LLM and shares `cwd` as its root. `refuse` turns every elicitation into a decline or a cancel.
 */
export function scriptedCallbacks(options: ScriptedOptions, out: (line: string) => void): InputCallbacks {
  const answers = options.answers ?? SCRIPTED_ANSWERS;
  const signInAs =
    options.signInAs === undefined
      ? { account: 'alice', password: DEMO_ACCOUNTS.alice as string }
      : options.signInAs;
  return {
    elicitation: async (params, ctx) => {
      let result: ElicitResult;
      let page: string | undefined;
      if (options.refuse !== undefined) result = { action: options.refuse };
      else if (params.mode === 'url') {
        result = { action: 'accept' };
        if (signInAs !== null) page = await signInAt(params.url, signInAs);
      } else {
        const required = new Set(params.requestedSchema.required ?? []);
        const content: Record<string, unknown> = {};
        for (const [name, field] of Object.entries(params.requestedSchema.properties)) {
          const value = Object.hasOwn(answers, name) ? answers[name] : fallback(field);
          if (
            required.has(name) ||
            Object.hasOwn(answers, name) ||
            (field as { default?: unknown }).default !== undefined
          ) {
            content[name] = value;
          }
        }
        result = { action: 'accept', content: content as NonNullable<ElicitResult['content']> };
      }
      const what = params.mode === 'url' ? `open ${params.url}` : params.message;
      out(
        `  ↳ scripted ${ctx.key}: ${what} → ${result.action}${result.content === undefined ? '' : ` ${JSON.stringify(result.content)}`}`,
      );
      if (page !== undefined) out(`    and signs in there as ${signInAs?.account}: ${page}`);
      return result;
    },
    sampling: loggedLlm(out),
    roots: (ctx) => {
      const result = rootsOf(options.cwd);
      out(`  ↳ roots ${ctx.key}: ${result.roots.map((r) => r.uri).join(', ')}`);
      return result;
    },
  };
}

/**
 * What a user does in the browser on the bookshop's sign-in page: posts the form (the ticket of the URL, the
 * account and its password). Resolves to what the page answered.
 */
async function signInAt(url: string, as: { readonly account: string; readonly password: string }) {
  const ticket = new URL(url).searchParams.get('ticket') ?? '';
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ticket, ...as }).toString(),
    });
    return `HTTP ${response.status}: ${await response.text()}`;
  } catch (error) {
    return `the page could not be reached (${(error as Error).message})`;
  }
}

/** The fake LLM as a sampling callback that shows what it was asked and what it replied. */
function loggedLlm(out: (line: string) => void): SamplingCallback {
  return (params, ctx) => {
    const result = fakeLlm(params);
    out(`  ↳ fake LLM ${ctx.key}: asked: ${textOf(params.messages.at(-1))}`);
    out(`    system: ${params.systemPrompt ?? '(none)'} (maxTokens ${params.maxTokens})`);
    out(`    replied (${result.model}): ${textOf(result)}`);
    return result;
  };
}

/**
 * The interactive client: every form elicitation becomes a terminal form ({@link fillForm}), every URL
 * elicitation a yes/no/cancel ({@link confirmUrl}); sampling is the visible fake LLM; roots are `cwd`.
 * Callbacks of one round run concurrently, so the forms are queued: one at a time on the terminal.
 */
export function terminalCallbacks(
  prompter: Prompter,
  cwd: string,
  out: (line: string) => void,
): InputCallbacks {
  let queue: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    elicitation: (params, ctx) =>
      oneAtATime(async () => {
        out('');
        const target = 'name' in ctx ? ctx.name : ctx.uri;
        out(`  Bookshop asks (${ctx.method} ${target}, round ${ctx.round}, ${ctx.key}):`);
        return params.mode === 'url' ? confirmUrl(params, prompter, out) : fillForm(params, prompter, out);
      }),
    sampling: loggedLlm(out),
    roots: (ctx) => {
      const result = rootsOf(cwd);
      out(`  ↳ roots ${ctx.key}: ${result.roots.map((r) => r.uri).join(', ')}`);
      return result;
    },
  };
}
