// The web app as a `(Request) => Promise<Response>`: every route, every refusal with its status, the forms it
// renders, and what an answer does to the store. No browser, no sockets (browser.test.ts drives the real page).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FlowStore, flowStore } from '../store.js';
import { continuation, emptyStore, form, manualClock, pendingFlow } from '../test-support/flows.js';
import { createInboxApp } from './app.js';
import { createPeople } from './people.js';

const ORIGIN = 'http://127.0.0.1:4100';
const clock = manualClock();
const people = createPeople({
  names: ['alice', 'bob'],
  keys: [new Uint8Array(32).fill(3)],
  clock: clock.read,
});
let dir: string;
let db: PGlite;
let store: FlowStore;
let app: (request: Request) => Promise<Response>;
let woken = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'inbox-app-'));
  db = await PGlite.create(dir);
  store = flowStore(db, { clock: clock.read });
  app = createInboxApp({
    store,
    people,
    origin: new URL(ORIGIN),
    roots: [{ uri: 'file:///srv/shared', name: 'shared' }],
    clock: clock.read,
    maxBodyBytes: 4096,
    onAnswered: () => woken++,
  });
});
afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  clock.now = Date.parse('2026-07-28T10:00:00Z');
  woken = 0;
  await emptyStore(db, store);
});

const cookieOf = (person: string) => people.sessionCookie(person, false).split(';')[0] as string;

function get(path: string, person?: string, headers: Record<string, string> = {}) {
  return app(
    new Request(`${ORIGIN}${path}`, {
      headers: {
        host: '127.0.0.1:4100',
        ...(person === undefined ? {} : { cookie: cookieOf(person) }),
        ...headers,
      },
    }),
  );
}

function post(
  path: string,
  person: string | undefined,
  entries: [string, string][],
  headers: Record<string, string> = {},
) {
  const body = new URLSearchParams(entries);
  if (person !== undefined && !entries.some(([k]) => k === 'csrf'))
    body.set('csrf', people.csrfToken(person));
  return app(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      body: body.toString(),
      headers: {
        host: '127.0.0.1:4100',
        origin: ORIGIN,
        'content-type': 'application/x-www-form-urlencoded',
        ...(person === undefined ? {} : { cookie: cookieOf(person) }),
        ...headers,
      },
    }),
  );
}

const REGISTER = form(
  'Register for the <b>reading</b> club',
  {
    name: { type: 'string', title: 'Your name', minLength: 2, description: 'As on your card' },
    email: { type: 'string', format: 'email', default: 'ada@example.com' },
    site: { type: 'string', format: 'uri' },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time', default: '2026-07-28T09:30:00Z' },
    seats: { type: 'integer', minimum: 1, maximum: 5, default: 2 },
    budget: { type: 'number', minimum: 0, maximum: 99.5 },
    vip: { type: 'boolean', default: true },
    agree: { type: 'boolean' },
    colour: { type: 'string', enum: ['red', 'green'] },
    speed: {
      type: 'string',
      oneOf: [
        { const: 'std', title: 'Standard' },
        { const: 'exp', title: 'Express' },
      ],
      default: 'exp',
    },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['b'], maxItems: 1 },
  },
  ['name', 'agree'],
);

async function registerFlow(answerers?: string[]) {
  return store.create(
    pendingFlow({
      tool: 'register',
      arguments: { club: 'sci-fi' },
      ...(answerers === undefined ? {} : { answerers }),
      outcome: { continuation: continuation({ reg: REGISTER }, 1, 'register', { club: 'sci-fi' }) },
    }),
  );
}

const VALID: [string, string][] = [
  ['round', '1'],
  ['q0.f0', 'Ada'],
  ['q0.f5', '3'],
  ['q0.f8', 'true'],
  ['q0.f10', 'std'],
];

describe('signing in', () => {
  it('without a session every page is 401 with how to sign in; a link trades for a cookie', async () => {
    const anonymous = await get('/');
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toContain('Open your sign-in link');
    const signIn = await get(people.signInPath('alice'));
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get('location')).toBe('/');
    expect(signIn.headers.get('set-cookie')).toMatch(/^inbox_session=sl1_.*HttpOnly; SameSite=Strict/);
    const forged = await get('/sign-in?token=sl1_forged');
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('Sign-in link not valid');
    expect((await get('/', 'alice')).status).toBe(200);
    expect((await get('/flows/x/status')).status).toBe(401);
  });

  it('signing out needs the form’s token and ends the session', async () => {
    expect((await post('/sign-out', 'alice', [['csrf', 'nope']])).status).toBe(403);
    const out = await post('/sign-out', 'alice', []);
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect((await get('/sign-out', 'alice')).status).toBe(405);
  });

  it('signing out revokes the session: its cookie, replayed after, is refused everywhere', async () => {
    const flow = await registerFlow(['alice']);
    const captured = { cookie: cookieOf('alice') };
    expect((await get('/', undefined, captured)).status).toBe(200);
    const refusedForm = await post('/sign-out', 'alice', [['csrf', 'nope']], captured);
    expect(refusedForm.status).toBe(403);
    expect((await get('/', undefined, captured)).status).toBe(200); // a refused sign-out revokes nothing
    expect((await post('/sign-out', 'alice', [], captured)).status).toBe(200);
    expect((await get('/', undefined, captured)).status).toBe(401);
    expect((await get(`/flows/${flow.id}`, undefined, captured)).status).toBe(401);
    expect((await get(`/flows/${flow.id}/status`, undefined, captured)).status).toBe(401);
    const replayed = await post(`/flows/${flow.id}`, 'alice', VALID, captured);
    expect(replayed.status).toBe(401);
    expect((await store.get(flow.id))?.status).toBe('pending');
    // Her other sessions, and a new sign-in, are untouched.
    expect((await get('/', 'alice')).status).toBe(200);
  });
});

describe('the list', () => {
  it('shows what waits for you and what finished, of the flows that concern you', async () => {
    const mine = await registerFlow(['alice']);
    await store.create(pendingFlow({ tool: 'check_stock', outcome: { result: { content: [] } } }));
    const page = await (await get('/', 'alice')).text();
    const section = (id: string) =>
      page.slice(page.indexOf(`id="${id}"`), page.indexOf('</section>', page.indexOf(`id="${id}"`)));
    expect(section('mine')).toContain(`/flows/${mine.id}`);
    expect(section('mine')).toContain('Register for the &lt;b&gt;reading&lt;/b&gt; club');
    expect(section('ended')).toContain('check_stock');
  });
});

describe('who sees which flow', () => {
  it('a flow concerns the people it names: nobody else sees or answers it, on any route (404, as no flow)', async () => {
    const theirs = await store.create(
      pendingFlow({ tool: 'order_book', arguments: { title: 'Dune' }, answerers: ['bob'] }),
    );
    const everyone = await store.create(pendingFlow({ tool: 'order_book', arguments: { title: 'Emma' } }));
    const alices = await (await get('/', 'alice')).text();
    expect(alices).not.toContain(theirs.id);
    expect(alices).not.toContain('Dune');
    expect(alices).toContain(`/flows/${everyone.id}`);
    const bobs = await (await get('/', 'bob')).text();
    expect(bobs).toContain(`/flows/${theirs.id}`);
    expect(bobs).toContain(`/flows/${everyone.id}`);
    const unknown = '00000000-0000-0000-0000-000000000000';
    for (const id of [theirs.id, unknown]) {
      const shown = await get(`/flows/${id}`, 'alice');
      expect(shown.status).toBe(404);
      const text = await shown.text();
      expect(text).toContain('There is no flow with this id.');
      expect(text).not.toContain('bob');
      expect((await get(`/flows/${id}/status`, 'alice')).status).toBe(404);
      expect((await post(`/flows/${id}/check`, 'alice', VALID)).status).toBe(404);
      expect((await post(`/flows/${id}`, 'alice', VALID)).status).toBe(404);
      expect(
        (
          await post(`/flows/${id}`, 'alice', [
            ['round', '1'],
            ['intent', 'drop'],
          ])
        ).status,
      ).toBe(404);
    }
    expect((await store.get(theirs.id))?.status).toBe('pending');
    expect((await get(`/flows/${theirs.id}`, 'bob')).status).toBe(200);
    expect((await get(`/flows/${everyone.id}`, 'alice')).status).toBe(200);
  });

  it('the list counts only your flows against its limit: 250 flows of others hide none of yours', async () => {
    const mine = await registerFlow(['alice']);
    for (let i = 0; i < 250; i++) {
      await store.create(pendingFlow({ arguments: { title: `Other ${i}` }, answerers: ['bob'] }));
    }
    expect((await store.list({ person: 'alice' })).map((flow) => flow.id)).toEqual([mine.id]);
    expect(await store.list({ person: 'bob' })).toHaveLength(200);
    expect(await (await get('/', 'alice')).text()).toContain(`/flows/${mine.id}`);
  });
});

describe('a flow page', () => {
  it('renders every field kind as its control, labelled, with its constraints and defaults', async () => {
    const flow = await registerFlow();
    const response = await get(`/flows/${flow.id}`, 'alice');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
    const page = await response.text();
    expect(page).toContain('<p class="message">Register for the &lt;b&gt;reading&lt;/b&gt; club</p>');
    expect(page).toMatch(
      /<label for="q0-f0">Your name <span class="required" aria-hidden="true">\*<\/span><\/label><input type="text" id="q0-f0" name="q0.f0" required aria-describedby="q0-f0-hint q0-f0-error" minlength="2" value="">/,
    );
    expect(page).toContain('<p class="hint" id="q0-f0-hint">As on your card · at least 2 characters</p>');
    expect(page).toMatch(/<input type="email" id="q0-f1" name="q0.f1"[^>]* value="ada@example.com">/);
    expect(page).toMatch(/<input type="url" id="q0-f2"/);
    expect(page).toMatch(/<input type="date" id="q0-f3"/);
    expect(page).toMatch(
      /<input type="datetime-local" id="q0-f4"[^>]* step="1" value="2026-07-28T09:30:00">/,
    );
    expect(page).toMatch(
      /<input type="number" id="q0-f5" name="q0.f5"[^>]* step="1" inputmode="numeric" min="1" max="5" value="2">/,
    );
    expect(page).toMatch(
      /<input type="number" id="q0-f6"[^>]* step="any" inputmode="decimal" min="0" max="99.5" value="">/,
    );
    expect(page).toMatch(/<input type="checkbox" id="q0-f7" name="q0.f7" value="true" checked/);
    expect(page).toMatch(
      /<fieldset class="field field-boolean" id="q0-f8"[^>]*><legend>agree <span class="required"/,
    );
    expect(page).toMatch(/<input type="radio" name="q0.f8" id="q0-f8-true" value="true" required> Yes/);
    expect(page).toMatch(
      /<select id="q0-f9" name="q0.f9"[^>]*><option value="">Choose…<\/option><option value="red">red<\/option>/,
    );
    expect(page).toMatch(/<option value="exp" selected>Express<\/option>/);
    expect(page).toMatch(
      /<fieldset class="field field-choices" id="q0-f11" data-field="q0-f11" data-max-items="1"/,
    );
    expect(page).toMatch(/<input type="checkbox" name="q0.f11" id="q0-f11-o1" value="b" checked> b/);
    expect(page).toContain('<input type="hidden" name="round" value="1">');
    expect(page).toContain('name="intent" value="decline"');
    expect(page).toContain('data-check="/flows/');
  });

  it('shows a URL as a link naming its host, and never links anything that is not a web address', async () => {
    const url = (href: string) =>
      store.create(
        pendingFlow({
          outcome: {
            continuation: continuation({
              go: {
                method: 'elicitation/create',
                params: { mode: 'url', message: 'Sign in', url: href },
              } as never,
            }),
          },
        }),
      );
    const ok = await url('https://shop.example/sign-in?t=1');
    const okPage = await (await get(`/flows/${ok.id}`, 'alice')).text();
    expect(okPage).toContain('<strong class="host">shop.example</strong>');
    expect(okPage).toContain(
      '<a href="https://shop.example/sign-in?t=1" target="_blank" rel="noopener noreferrer">',
    );
    expect(okPage).toContain('class="primary">Done</button>');
    const evil = await url('javascript:alert(1)');
    const evilPage = await (await get(`/flows/${evil.id}`, 'alice')).text();
    expect(evilPage).not.toContain('href="javascript:');
    expect(evilPage).toContain('not a web address: it is not linked');
  });

  it('shows a sampling request as its conversation and a reply box; roots as the configured ones; no decline', async () => {
    const flow = await store.create(
      pendingFlow({
        outcome: {
          continuation: continuation({
            llm: {
              method: 'sampling/createMessage',
              params: {
                systemPrompt: 'One line.',
                messages: [{ role: 'user', content: { type: 'text', text: 'Blurb for Dune?' } }],
                maxTokens: 60,
              },
            },
            where: { method: 'roots/list' },
          }),
        },
      }),
    );
    const page = await (await get(`/flows/${flow.id}`, 'alice')).text();
    expect(page).toContain('<p class="system"><span class="role">System</span> One line.</p>');
    expect(page).toContain('<p>Blurb for Dune?</p>');
    expect(page).toMatch(/<textarea id="q0-text" name="q0.text" rows="4" required/);
    expect(page).toMatch(
      /<input type="checkbox" name="q1.roots" id="q1-r0" value="file:\/\/\/srv\/shared" checked> shared/,
    );
    expect(page).not.toContain('value="decline"');
    expect(page).toContain('value="drop"');
  });

  it('shows results, errors and expiry for flows that ended', async () => {
    const done = await store.create(
      pendingFlow({ outcome: { result: { content: [{ type: 'text', text: 'Ordered <2>' }] } } }),
    );
    expect(await (await get(`/flows/${done.id}`, 'alice')).text()).toContain(
      '<p class="result-text">Ordered &lt;2&gt;</p>',
    );
    const refused = await store.create(
      pendingFlow({ outcome: { result: { isError: true, content: [{ type: 'text', text: 'Declined' }] } } }),
    );
    expect(await (await get(`/flows/${refused.id}`, 'alice')).text()).toContain('The tool reported an error');
    const failed = await store.create(
      pendingFlow({ outcome: { error: 'The server answered error -32602: nope' } }),
    );
    expect(await (await get(`/flows/${failed.id}`, 'alice')).text()).toContain(
      'The server answered error -32602: nope',
    );
    const expiring = await registerFlow();
    clock.now += 60_000;
    const expired = await (await get(`/flows/${expiring.id}`, 'alice')).text();
    expect(expired).toContain('<h2>Expired</h2>');
    expect(expired).toContain('Expired flows are not retried');
    expect(expired).not.toContain('name="intent"');
  });

  it('a flow being resumed says who answered and asks the script to wait for it', async () => {
    const flow = await registerFlow();
    await post(`/flows/${flow.id}`, 'bob', VALID);
    const page = await (await get(`/flows/${flow.id}`, 'alice')).text();
    expect(page).toContain('Answered by <strong>bob</strong>');
    expect(page).toContain(`data-poll="/flows/${flow.id}/status" data-status="answered" data-round="1"`);
    const status = await get(`/flows/${flow.id}/status`, 'alice');
    expect(await status.json()).toEqual({ status: 'answered', round: 1, updatedAt: clock.now });
  });
});

describe('answering', () => {
  it('takes valid answers, wakes the resumers and sends the browser back to the flow', async () => {
    const flow = await registerFlow();
    const response = await post(`/flows/${flow.id}`, 'alice', VALID);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/flows/${flow.id}`);
    expect(woken).toBe(1);
    expect(await store.get(flow.id)).toMatchObject({
      status: 'answered',
      answeredBy: 'alice',
      answers: {
        reg: {
          action: 'accept',
          content: { name: 'Ada', seats: 3, vip: false, agree: true, speed: 'std', tags: [] },
        },
      },
    });
  });

  it('answers that do not fit are 422: the form again, with the values sent and each problem', async () => {
    const flow = await registerFlow();
    const response = await post(`/flows/${flow.id}`, 'alice', [
      ['round', '1'],
      ['q0.f0', 'A'],
      ['q0.f1', 'not-an-email'],
      ['q0.f5', '9'],
    ]);
    expect(response.status).toBe(422);
    const page = await response.text();
    expect(page).toContain(
      '<div class="error-summary" id="error-summary" role="alert" tabindex="-1"><h2>Please fix these:</h2>',
    );
    expect(page).toContain('<a href="#q0-f0">Your name: at least 2 characters, please</a>');
    expect(page).toContain('<p class="field-error" id="q0-f5-error">at most 5</p>');
    expect(page).toContain('<p class="field-error" id="q0-f8-error">this field is required</p>');
    expect(page).toMatch(
      /id="q0-f0" name="q0.f0" required aria-describedby="q0-f0-hint q0-f0-error" aria-invalid="true" minlength="2" value="A"/,
    );
    expect(page).toMatch(/id="q0-f1"[^>]*value="not-an-email"/);
    expect((await store.get(flow.id))?.status).toBe('pending');
    expect(woken).toBe(0);
  });

  it('the check route answers the same problems as JSON and takes nothing', async () => {
    const flow = await registerFlow();
    const response = await post(`/flows/${flow.id}/check`, 'alice', [
      ['round', '1'],
      ['q0.f0', 'A'],
    ]);
    expect(response.status).toBe(200);
    const { problems } = (await response.json()) as { problems: { id: string; message: string }[] };
    expect(problems.map((p) => [p.id, p.message])).toEqual([
      ['q0-f0', 'at least 2 characters, please'],
      ['q0-f8', 'this field is required'],
    ]);
    expect(await (await post(`/flows/${flow.id}/check`, 'alice', VALID)).json()).toEqual({ problems: [] });
    expect((await store.get(flow.id))?.status).toBe('pending');
    expect((await post(`/flows/${flow.id}/check`, undefined, VALID)).status).toBe(401);
  });

  it('decline and cancel are answers; drop ends the flow unanswered', async () => {
    const declined = await registerFlow();
    await post(`/flows/${declined.id}`, 'alice', [
      ['round', '1'],
      ['intent', 'decline'],
    ]);
    expect((await store.get(declined.id))?.answers).toEqual({ reg: { action: 'decline' } });
    const cancelled = await registerFlow();
    await post(`/flows/${cancelled.id}`, 'alice', [
      ['round', '1'],
      ['intent', 'cancel'],
    ]);
    expect((await store.get(cancelled.id))?.answers).toEqual({ reg: { action: 'cancel' } });
    const dropped = await registerFlow();
    expect(
      (
        await post(`/flows/${dropped.id}`, 'alice', [
          ['round', '1'],
          ['intent', 'drop'],
        ])
      ).status,
    ).toBe(303);
    expect(await store.get(dropped.id)).toMatchObject({
      status: 'dropped',
      error: 'Dropped by alice without answering.',
    });
  });

  it('two people answering the same round: the second gets 409 naming the first, and nothing is taken', async () => {
    const flow = await registerFlow();
    expect((await post(`/flows/${flow.id}`, 'alice', VALID)).status).toBe(303);
    const late = await post(`/flows/${flow.id}`, 'bob', VALID);
    expect(late.status).toBe(409);
    expect(await late.text()).toContain(
      '<strong>alice</strong> answered this round first; your answers were not sent.',
    );
    expect(await store.rounds(flow.id)).toHaveLength(1);
  });

  it('an expired round is 410; an older round is 409', async () => {
    const stale = await registerFlow();
    expect(
      (
        await post(`/flows/${stale.id}`, 'alice', [
          ['round', '2'],
          ['intent', 'decline'],
        ])
      ).status,
    ).toBe(409);
    clock.now += 60_000;
    const gone = await post(`/flows/${stale.id}`, 'alice', VALID);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain('This round expired before your answers arrived');
    expect((await store.get(stale.id))?.status).toBe('expired');
  });

  it.each<[string, () => Promise<Response>, number]>([
    ['no CSRF token', () => post('/flows/x', 'alice', [['csrf', ''], ...VALID]), 403],
    [
      'another person’s CSRF token',
      () => post('/flows/x', 'alice', [['csrf', people.csrfToken('bob')], ...VALID]),
      403,
    ],
    ['another origin', () => post('/flows/x', 'alice', VALID, { origin: 'https://evil.example' }), 403],
    ['another host (DNS rebinding)', () => get('/', 'alice', { host: 'evil.example:4100' }), 403],
    ['a JSON body', () => post('/flows/x', 'alice', VALID, { 'content-type': 'application/json' }), 415],
    ['a body over the limit', () => post('/flows/x', 'alice', [...VALID, ['q0.f0', 'x'.repeat(5000)]]), 413],
    ['an unknown flow', () => post('/flows/00000000-0000-0000-0000-000000000000', 'alice', VALID), 404],
    ['an unknown path', () => get('/admin', 'alice'), 404],
    ['an id with odd characters', () => get('/flows/..%2F..%2Fetc', 'alice'), 404],
    [
      'PUT on a flow',
      () => app(new Request(`${ORIGIN}/flows/x`, { method: 'PUT', headers: { host: '127.0.0.1:4100' } })),
      405,
    ],
    ['GET on the check route', () => get('/flows/x/check', 'alice'), 405],
    ['POST on the list', () => post('/', 'alice', []), 405],
    ['a stylesheet POST', () => post('/assets/inbox.css', 'alice', []), 405],
  ])('refuses %s', async (_, send, status) => {
    expect((await send()).status).toBe(status);
  });

  it('refuses a missing round or an unknown action with 400', async () => {
    const flow = await registerFlow();
    expect((await post(`/flows/${flow.id}`, 'alice', [['q0.f0', 'Ada']])).status).toBe(400);
    expect((await post(`/flows/${flow.id}`, 'alice', [['round', '1.5']])).status).toBe(400);
    expect(
      (
        await post(`/flows/${flow.id}`, 'alice', [
          ['round', '1'],
          ['intent', 'approve'],
        ])
      ).status,
    ).toBe(400);
    expect((await store.get(flow.id))?.status).toBe('pending');
  });
});

describe('assets and failures', () => {
  it('serves the stylesheet and the script', async () => {
    const css = await get('/assets/inbox.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const js = await get('/assets/inbox.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toContain('form[data-check]');
  });

  it('a store that fails is a 500 page, and the app keeps serving', async () => {
    const broken = createInboxApp({
      store: { ...store, list: () => Promise.reject(new Error('db down')) },
      people,
      origin: new URL(ORIGIN),
    });
    const request = () =>
      new Request(`${ORIGIN}/`, { headers: { host: '127.0.0.1:4100', cookie: cookieOf('alice') } });
    const original = console.error;
    console.error = () => {};
    try {
      const failed = await broken(request());
      expect(failed.status).toBe(500);
      expect(await failed.text()).toContain('Something went wrong');
    } finally {
      console.error = original;
    }
    expect((await get('/', 'alice')).status).toBe(200);
  });
});
