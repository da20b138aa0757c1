// The inbox's web app as one `(Request) => Promise<Response>`: the routes, who may do what, and every refusal
// with its status and a page that says why. The node:http adapter is serve.ts.
import type { Root } from '@boomerang/protocol';
import { concerns, type Flow, questionsOf } from '../flow.js';
import type { AnswerRefusal, FlowStore } from '../store.js';
import { INBOX_CSS, INBOX_JS } from './assets.js';
import { type Html, html } from './html.js';
import { flowPage, listPage, messagePage, type PageContext } from './pages.js';
import type { People } from './people.js';
import { type Intent, questionViews, readAnswers } from './questions.js';

/** Options of {@link createInboxApp}. */
export interface InboxAppOptions {
  readonly store: FlowStore;
  readonly people: People;
  /** Where the page is served (`http://127.0.0.1:4100`): only requests for this host are answered (DNS rebinding), and POSTs from other origins are refused. */
  readonly origin: URL;
  /** The roots a person may share with a server that asks. */
  readonly roots?: readonly Root[];
  /** Called after a person answered (to wake the resumers of this process). */
  readonly onAnswered?: () => void;
  /** Largest accepted form body, bytes (default 64 KiB). */
  readonly maxBodyBytes?: number;
  /** Epoch ms. */
  readonly clock?: () => number;
}

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  // Not `no-referrer`: with it, browsers send `Origin: null` on form posts, which the origin check refuses.
  // `same-origin` still keeps this page's address from the sites a URL elicitation links to.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
} as const;

function page(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', ...SECURITY_HEADERS, ...headers },
  });
}

function json(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json', ...SECURITY_HEADERS },
  });
}

function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, ...SECURITY_HEADERS, ...headers } });
}

/** The status and words of each refusal of an answer. */
function refusalNotice(reason: AnswerRefusal, first: string | undefined): { status: number; notice: Html } {
  switch (reason) {
    case 'not-found':
      return { status: 404, notice: html`<p>No such flow.</p>` };
    case 'already-answered':
      return {
        status: 409,
        notice: html`<p class="notice refused" role="alert"><strong>${first ?? 'Somebody'}</strong> answered this round first; your answers were not sent.</p>`,
      };
    case 'expired':
      return {
        status: 410,
        notice: html`<p class="notice refused" role="alert">This round expired before your answers arrived; they were not sent.</p>`,
      };
    case 'stale-round':
      return {
        status: 409,
        notice: html`<p class="notice refused" role="alert">This page showed an older round; the flow has moved on. Your answers were not sent.</p>`,
      };
    case 'ended':
      return {
        status: 409,
        notice: html`<p class="notice refused" role="alert">This flow has ended; your answers were not sent.</p>`,
      };
  }
}

/** Reads a form body of at most `limit` bytes; `undefined` when it is larger. */
async function formBody(request: Request, limit: number): Promise<URLSearchParams | undefined> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) return undefined;
  const reader = request.body?.getReader();
  if (reader === undefined) return new URLSearchParams();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const INTENTS: ReadonlySet<string> = new Set(['accept', 'decline', 'cancel', 'drop']);

/**
 * The inbox's web app (see the file comment of pages.ts for what it shows):
 *
 * | route                      |                                                                          |
 * | -------------------------- | ------------------------------------------------------------------------ |
 * | `GET /`                    | the flows: waiting for you, for others, being resumed, finished          |
 * | `GET /flows/:id`           | one flow: its questions as a form, where it stands, its result           |
 * | `POST /flows/:id`          | answers (or decline / cancel / drop) for the round shown; 303 back to it |
 * | `POST /flows/:id/check`    | the same answers checked, nothing taken: `{ problems }` (the script)     |
 * | `GET /flows/:id/status`    | `{ status, round, updatedAt }` (the script, while a resume runs)         |
 * | `GET /sign-in?token=…`     | trades a sign-in link for a session cookie                               |
 * | `POST /sign-out`           | revokes the session server-side and deletes its cookie                   |
 * | `GET /assets/inbox.{css,js}` | the stylesheet and the script                                          |
 *
 * Who sees what: a person sees and answers only the flows that concern them (`concerns`: flows naming them among
 * their answerers, and flows naming nobody); any other flow answers 404 on every route, as an unknown id does (a
 * 403 would confirm the id, and the page would name its people). Signing out revokes the session server-side.
 *
 * Refusals: 401 without a session (or with a signed-out one), 403 for a POST from another origin or without the
 * form's CSRF token, or a request for another host; 404 (an unknown flow, or one that does not concern you), 405;
 * 409 when somebody answered first or the round moved on; 410 when the round expired; 413 for a body over
 * `maxBodyBytes`; 415 for a body that is not a form; 422 with the form and each problem when answers do not fit
 * their questions.
 */
export function createInboxApp(options: InboxAppOptions): (request: Request) => Promise<Response> {
  const { store, people, origin } = options;
  const clock = options.clock ?? Date.now;
  const roots = options.roots ?? [];
  const limit = options.maxBodyBytes ?? 64 * 1024;
  const port = origin.port === '' ? '' : `:${origin.port}`;
  const allowedHosts = new Set([origin.host, `localhost${port}`, `127.0.0.1${port}`, `[::1]${port}`]);
  const allowedOrigins = new Set([...allowedHosts].map((host) => `${origin.protocol}//${host}`));
  const secure = origin.protocol === 'https:';

  const context = (person: string | undefined): PageContext => ({
    now: clock(),
    ...(person === undefined ? {} : { person, csrf: people.csrfToken(person) }),
  });

  const signInHelp = () =>
    page(
      401,
      messagePage(
        'Sign in',
        html`<p>Open your sign-in link to use the inbox. The inbox prints one per person when it starts (<code>Sign in as alice: http://…/sign-in?token=…</code>).</p>`,
        context(undefined),
        false,
      ),
    );

  /** Flow `id` when it concerns `person` (see `concerns`): to anyone else it does not exist, as an unknown id. */
  async function flowFor(id: string, person: string): Promise<Flow | undefined> {
    const flow = await store.get(id);
    return flow !== undefined && concerns(flow, person) ? flow : undefined;
  }

  const noSuchFlow = (person: string) =>
    page(404, messagePage('No such flow', 'There is no flow with this id.', context(person)));

  async function showFlow(id: string, person: string): Promise<Response> {
    await store.expireDue();
    const flow = await flowFor(id, person);
    if (flow === undefined) return noSuchFlow(person);
    return page(200, flowPage(flow, await store.rounds(id), roots, { ...context(person), person }));
  }

  /** The checks every POST on a flow shares; a Response when one fails, else the flow, the form and the intent. */
  async function answering(
    request: Request,
    id: string,
    person: string,
  ): Promise<Response | { flow: Flow; form: URLSearchParams; intent: Intent; round: number }> {
    const type = request.headers.get('content-type') ?? '';
    if (!type.startsWith('application/x-www-form-urlencoded')) {
      return page(
        415,
        messagePage(
          'Not a form',
          'Answers are sent as a form (application/x-www-form-urlencoded).',
          context(person),
        ),
      );
    }
    const form = await formBody(request, limit);
    if (form === undefined) {
      return page(
        413,
        messagePage('Too much', `The answers are larger than ${limit} bytes.`, context(person)),
      );
    }
    if (!people.checkCsrf(person, form.get('csrf'))) {
      return page(
        403,
        messagePage(
          'Form expired',
          'This form is too old or did not come from this inbox: reload the page and answer again.',
          context(person),
        ),
      );
    }
    const flow = await flowFor(id, person);
    if (flow === undefined) return noSuchFlow(person);
    const round = Number(form.get('round'));
    const intent = form.get('intent') ?? 'accept';
    if (!/^\d{1,9}$/.test(form.get('round') ?? '') || !INTENTS.has(intent)) {
      return page(
        400,
        messagePage('Bad form', 'The form lacks its round or names an unknown action.', context(person)),
      );
    }
    return { flow, form, intent: intent as Intent, round };
  }

  async function refused(id: string, round: number, person: string, reason: AnswerRefusal, flow?: Flow) {
    const now = (await store.get(id)) ?? flow;
    if (now === undefined) return noSuchFlow(person);
    const rounds = await store.rounds(id);
    // Once the flow moved on, who answered that round is in its history.
    const first = flow?.answeredBy ?? rounds.find((r) => r.round === round)?.answeredBy;
    const { status, notice } = refusalNotice(reason, first);
    return page(status, flowPage(now, rounds, roots, { ...context(person), person }, undefined, notice));
  }

  async function answer(request: Request, id: string, person: string, checkOnly: boolean): Promise<Response> {
    const checked = await answering(request, id, person);
    if (checked instanceof Response) return checkOnly ? json(checked.status, { problems: [] }) : checked;
    const { flow, form, intent, round } = checked;
    if (intent === 'drop') {
      if (checkOnly) return json(200, { problems: [] });
      const dropped = await store.drop(id, round, person);
      return dropped.ok ? redirect(`/flows/${id}`) : refused(id, round, person, dropped.reason, dropped.flow);
    }
    const current = flow.status === 'pending' && flow.round === round && flow.deadline > clock();
    const questions = questionViews(current ? questionsOf(flow) : {}, roots);
    const { responses, problems } = readAnswers(questions, form, intent, person);
    if (checkOnly) return json(200, { problems });
    if (current && problems.length > 0) {
      return page(
        422,
        flowPage(flow, await store.rounds(id), roots, { ...context(person), person }, { form, problems }),
      );
    }
    const taken = await store.answer(id, round, responses, person);
    if (!taken.ok) return refused(id, round, person, taken.reason, taken.flow);
    options.onAnswered?.();
    return redirect(`/flows/${id}`);
  }

  async function route(request: Request, url: URL): Promise<Response> {
    const { pathname } = url;
    const method = request.method;
    if (pathname === '/favicon.ico') return new Response(null, { status: 204, headers: SECURITY_HEADERS });
    if (pathname === '/assets/inbox.css' || pathname === '/assets/inbox.js') {
      if (method !== 'GET' && method !== 'HEAD')
        return new Response(null, { status: 405, headers: { allow: 'GET' } });
      const css = pathname.endsWith('.css');
      return new Response(css ? INBOX_CSS : INBOX_JS, {
        headers: {
          'content-type': css ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
          'cache-control': 'no-cache',
          'x-content-type-options': 'nosniff',
        },
      });
    }
    if (pathname === '/sign-in') {
      if (method !== 'GET') return new Response(null, { status: 405, headers: { allow: 'GET' } });
      const person = people.personFromSignIn(url.searchParams.get('token') ?? '');
      if (person === undefined) {
        return page(
          403,
          messagePage(
            'Sign-in link not valid',
            'This link is not valid: it expired, or it comes from an earlier run of the inbox (links die with its key unless INBOX_SECRET is set). Use a link the inbox printed this time.',
            context(undefined),
            false,
          ),
        );
      }
      return redirect('/', { 'set-cookie': people.sessionCookie(person, secure) });
    }
    const person = await people.personOf(request);
    if (pathname === '/sign-out') {
      if (method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
      if (person !== undefined) {
        const form = await formBody(request, limit);
        if (!people.checkCsrf(person, form?.get('csrf') ?? null)) {
          return page(
            403,
            messagePage('Form expired', 'Reload the page and sign out again.', context(person)),
          );
        }
        // Revoked, not only deleted from this browser: a copy of the cookie opens nothing from now on.
        await people.endSession(request);
      }
      return page(
        200,
        messagePage(
          'Signed out',
          'You are signed out. Open your sign-in link to come back.',
          context(undefined),
          false,
        ),
        {
          'set-cookie': people.endSessionCookie(),
        },
      );
    }
    if (pathname === '/') {
      if (method !== 'GET' && method !== 'HEAD')
        return new Response(null, { status: 405, headers: { allow: 'GET' } });
      if (person === undefined) return signInHelp();
      await store.expireDue();
      return page(200, listPage(await store.list({ person }), { ...context(person), person }));
    }
    const match = /^\/flows\/([A-Za-z0-9-]{1,64})(\/check|\/status)?$/.exec(pathname);
    if (match === null) return page(404, messagePage('Not found', 'There is nothing here.', context(person)));
    const id = match[1] as string;
    const sub = match[2];
    if (sub === '/status') {
      if (method !== 'GET') return new Response(null, { status: 405, headers: { allow: 'GET' } });
      if (person === undefined) return json(401, { error: 'not signed in' });
      const flow = await flowFor(id, person);
      return flow === undefined
        ? json(404, { error: 'no such flow' })
        : json(200, { status: flow.status, round: flow.round, updatedAt: flow.updatedAt });
    }
    if (sub === '/check') {
      if (method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
      if (person === undefined) return json(401, { problems: [] });
      return answer(request, id, person, true);
    }
    if (method === 'GET' || method === 'HEAD')
      return person === undefined ? signInHelp() : showFlow(id, person);
    if (method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'GET, POST' } });
    if (person === undefined) return signInHelp();
    return answer(request, id, person, false);
  }

  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return new Response('Bad Request', { status: 400 });
    }
    // DNS rebinding: a page reached through another name (a rebound DNS entry) is refused.
    const host = request.headers.get('host') ?? url.host;
    if (!allowedHosts.has(host)) return new Response('Forbidden: unknown host', { status: 403 });
    // Cross-site POSTs: a browser names the page that sent them; only this inbox's own pages may.
    const from = request.headers.get('origin');
    if (request.method === 'POST' && from !== null && !allowedOrigins.has(from)) {
      return new Response('Forbidden: cross-origin request', { status: 403 });
    }
    try {
      return await route(request, url);
    } catch (error) {
      console.error('[inbox] request failed:', error);
      return page(
        500,
        messagePage(
          'Something went wrong',
          'The inbox could not do that (see its log). Try again in a moment.',
          context(undefined),
        ),
      );
    }
  };
}
