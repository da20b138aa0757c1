import { expect, it, describe as suite } from 'vitest';
import { z } from 'zod';
import { elicit, listRoots, planResolvers, resolver, runResolvers, sample } from './index.js';
import {
  accepting,
  describe,
  drive,
  fakeCtx,
  keyOf,
  questionsOf,
  retry,
  round,
  stateOf,
  valuesOf,
} from './test-support/rounds.js';

const inventory = new Map([
  ['Dune', 3],
  ['Emma', 0],
]);

/** The bookshop: a pure stock check, a backorder confirmation that asks only when out of stock. */
function bookshop() {
  const calls = { stock: 0, backorder: 0, delivery: 0 };
  const stock = resolver({ args: ['title'] }, ({ title }: { title: string }) => {
    calls.stock++;
    return { count: inventory.get(title) ?? 0 };
  });
  const backorder = resolver({ args: ['title'], uses: { stock } }, ({ stock, title }) => {
    calls.backorder++;
    return stock.count > 0
      ? { confirm: true }
      : elicit(`Backorder ${String(title)}?`, z.object({ confirm: z.boolean() }));
  });
  const delivery = resolver({ uses: { stock } }, async ({ stock }) => {
    calls.delivery++;
    return stock.count > 0 ? 2 : 14;
  });
  const plan = planResolvers("tool 'order_book'", { stock, backorder, delivery }, ['title']);
  return { plan, calls };
}

suite('runResolvers: values', () => {
  it('resolves pure resolvers in one round, from named arguments and other resolvers', async () => {
    const { plan, calls } = bookshop();
    const values = valuesOf(await round(plan, { title: 'Dune' }));
    expect(values).toEqual({ stock: { count: 3 }, backorder: { confirm: true }, delivery: 2 });
    expect(calls).toEqual({ stock: 1, backorder: 1, delivery: 1 });
  });

  it('runs a shared dependency once per round, however many consumers it has', async () => {
    const { plan, calls } = bookshop();
    await drive(plan, { title: 'Emma' }, accepting({ confirm: true }));
    // Two rounds (ask, then answer): the shared `stock` ran once in each.
    expect(calls.stock).toBe(2);
    expect(calls.delivery).toBe(2);
  });

  it('passes only the named arguments, the uses values and the request context', async () => {
    const seen: unknown[] = [];
    const ctx = fakeCtx({ requestId: 'req-7' });
    const inner = resolver({}, () => 'inner');
    const r = resolver({ args: ['a'], uses: { inner } }, (input, context) => {
      seen.push(input, context);
      return 1;
    });
    const plan = planResolvers('t', { r }, ['a', 'b']);
    await runResolvers(plan, { a: 1, b: 2 }, ctx);
    expect(seen).toEqual([{ a: 1, inner: 'inner' }, ctx]);
  });

  it('omits an optional argument that was not sent', async () => {
    let input: unknown;
    const r = resolver({ args: ['a'] }, (i) => {
      input = i;
      return 1;
    });
    await round(planResolvers('t', { r }, ['a']), {});
    expect(input).toEqual({});
  });

  it('accepts sync and async resolvers, and values that look like nothing special', async () => {
    const sync = resolver({}, () => null);
    const asyncR = resolver({}, async () => undefined);
    const obj = resolver({}, () => ({ kind: 'elicit' }));
    const values = valuesOf(await round(planResolvers('t', { sync, asyncR, obj }, []), {}));
    expect(values).toEqual({ sync: null, asyncR: undefined, obj: { kind: 'elicit' } });
  });

  it('gives one resolver under two names the same value, computed once', async () => {
    let runs = 0;
    const r = resolver({}, () => ++runs);
    expect(valuesOf(await round(planResolvers('t', { a: r, b: r }, []), {}))).toEqual({ a: 1, b: 1 });
  });

  it('runs independent resolvers concurrently', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const waits = resolver({}, async () => {
      await gate;
      return 'a';
    });
    const opens = resolver({}, () => {
      release();
      return 'b';
    });
    const values = valuesOf(await round(planResolvers('t', { waits, opens }, []), {}));
    expect(values).toEqual({ waits: 'a', opens: 'b' });
  });

  it('rethrows what a resolver throws, and does not run its consumers', async () => {
    let consumerRan = false;
    const boom = resolver({}, () => {
      throw new Error('inventory offline');
    });
    const consumer = resolver({ uses: { boom } }, () => {
      consumerRan = true;
      return 1;
    });
    await expect(round(planResolvers('t', { consumer }, []), {})).rejects.toThrow('inventory offline');
    expect(consumerRan).toBe(false);
  });

  it('reports the first failure in plan order when several fail', async () => {
    const slow = resolver({}, async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw new Error('first in plan order');
    });
    const fast = resolver({}, () => {
      throw new Error('first in time');
    });
    await expect(round(planResolvers('t', { slow, fast }, []), {})).rejects.toThrow('first in plan order');
  });

  it('fails the round even when other questions are pending', async () => {
    const asks = resolver({}, () => elicit('Name?', z.object({ name: z.string() })));
    const boom = resolver({}, () => {
      throw new TypeError('bad');
    });
    await expect(round(planResolvers('t', { asks, boom }, []), {})).rejects.toThrow(TypeError);
  });
});

suite('runResolvers: rounds', () => {
  it('asks only when needed: in stock → no question; out of stock → one question, then the answer', async () => {
    const { plan } = bookshop();
    const first = questionsOf(await round(plan, { title: 'Emma' }));
    expect(Object.values(first.inputRequests).map(describe)).toEqual(['Backorder Emma?']);
    expect(first.inputRequests).toEqual({
      [keyOf(first, 'r1')]: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Backorder Emma?',
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean' } },
            required: ['confirm'],
          },
        },
      },
    });
    const second = await retry(plan, { title: 'Emma' }, first, {
      r1: { action: 'accept', content: { confirm: false } },
    });
    expect(valuesOf(second)).toEqual({ stock: { count: 0 }, backorder: { confirm: false }, delivery: 14 });
  });

  it('batches all independent questions into one InputRequiredResult, mixed kinds included', async () => {
    const name = resolver({}, () => elicit('Name?', z.object({ name: z.string() })));
    const haiku = resolver({}, () =>
      sample({ messages: [{ role: 'user', content: { type: 'text', text: 'haiku' } }], maxTokens: 50 }),
    );
    const roots = resolver({}, () => listRoots());
    const plan = planResolvers('t', { name, haiku, roots }, []);
    const { values, rounds } = await drive(plan, {}, accepting({ name: 'Ada' }));
    expect(rounds.map((r) => Object.values(r).map((q) => q.method))).toEqual([
      ['elicitation/create', 'sampling/createMessage', 'roots/list'],
    ]);
    expect(values).toEqual({
      name: { name: 'Ada' },
      haiku: { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' },
      roots: { roots: [{ uri: 'file:///work' }] },
    });
  });

  it('batches independent nested questions, and asks dependent ones in a later round', async () => {
    const a = resolver({}, () => elicit('A?', z.object({ v: z.string() })));
    const b = resolver({}, () => elicit('B?', z.object({ v: z.string() })));
    const both = resolver({ uses: { a, b } }, ({ a, b }) =>
      elicit(`Both ${a.v}${b.v}?`, z.object({ ok: z.boolean() })),
    );
    const plan = planResolvers('t', { both }, []);
    const { values, rounds } = await drive(plan, {}, (request) =>
      describe(request).startsWith('Both')
        ? { action: 'accept', content: { ok: true } }
        : { action: 'accept', content: { v: 'x' } },
    );
    expect(rounds.map((r) => Object.values(r).map(describe))).toEqual([['A?', 'B?'], ['Both xx?']]);
    expect(values).toEqual({ both: { ok: true } });
  });

  it('asks each question once per call while resolvers re-run every round', async () => {
    const runs = { login: 0, confirm: 0 };
    const asked: string[] = [];
    const login = resolver({}, () => {
      runs.login++;
      return elicit('Login?', z.object({ user: z.string() }));
    });
    const confirm = resolver({ uses: { login } }, ({ login }) => {
      runs.confirm++;
      return elicit(`Delete as ${login.user}?`, z.object({ ok: z.boolean() }));
    });
    const plan = planResolvers('t', { confirm }, []);
    const { values } = await drive(plan, {}, (request) => {
      asked.push(describe(request));
      return describe(request) === 'Login?'
        ? { action: 'accept', content: { user: 'ada' } }
        : { action: 'accept', content: { ok: true } };
    });
    expect(values).toEqual({ confirm: { ok: true } });
    expect(asked).toEqual(['Login?', 'Delete as ada?']);
    expect(runs).toEqual({ login: 3, confirm: 2 });
  });

  it('keeps early answers across a deep chain', async () => {
    const asked: string[] = [];
    const a = resolver({}, () => elicit('A?', z.object({ v: z.number() })));
    const b = resolver({ uses: { a } }, ({ a }) => elicit(`B after ${a.v}?`, z.object({ v: z.number() })));
    const c = resolver({ uses: { b } }, ({ b }) => elicit(`C after ${b.v}?`, z.object({ v: z.number() })));
    const d = resolver({ uses: { a, c } }, ({ a, c }) => a.v + c.v);
    const { values, rounds } = await drive(planResolvers('t', { d }, []), {}, (request) => {
      asked.push(describe(request));
      return { action: 'accept', content: { v: asked.length } };
    });
    expect(asked).toEqual(['A?', 'B after 1?', 'C after 2?']);
    expect(rounds).toHaveLength(3);
    expect(values).toEqual({ d: 1 + 3 });
  });

  it('uses opaque wire keys: no resolver, argument or function names', async () => {
    const secretlyNamedResolver = resolver({ args: ['title'] }, function confirmBackorderInternal() {
      return elicit('Go?', z.object({ ok: z.boolean() }));
    });
    const plan = planResolvers('t', { secretlyNamedResolver }, ['title']);
    const result = questionsOf(await round(plan, { title: 'x' }));
    expect(Object.keys(result.inputRequests)).toEqual([expect.stringMatching(/^r0\.[A-Za-z0-9_-]{22}$/)]);
    expect(result.requestState).toBeUndefined();
  });

  it('keeps names out of the recorded state too', async () => {
    const namedFirst = resolver({}, function askTheSecretName() {
      return elicit('Name?', z.object({ name: z.string() }));
    });
    const then = resolver({ uses: { namedFirst } }, () => elicit('Go?', z.object({ ok: z.boolean() })));
    const plan = planResolvers('t', { then }, []);
    const first = questionsOf(await round(plan, {}));
    const second = questionsOf(
      await retry(plan, {}, first, { r1: { action: 'accept', content: { name: 'x' } } }),
    );
    expect(Object.keys(JSON.parse(stateOf(second)).answers)).toEqual(['r1']);
    expect(stateOf(second)).not.toMatch(/askTheSecretName|namedFirst|then/);
  });

  it('records nothing for plain values, and returns no state once resolved', async () => {
    const pure = resolver({}, () => ({ secret: 'not in the state' }));
    const asks = resolver({}, () => elicit('Go?', z.object({ ok: z.boolean() })));
    const plan = planResolvers('t', { pure, asks }, []);
    const first = questionsOf(await round(plan, {}));
    expect(first.requestState).toBeUndefined();
    const done = await retry(plan, {}, first, { r1: { action: 'accept', content: { ok: true } } });
    expect(done).toEqual({
      kind: 'resolved',
      values: { pure: { secret: 'not in the state' }, asks: { ok: true } },
    });
  });

  it('is stable across processes: two plans of the same map produce the same keys and state', async () => {
    const make = () => {
      const a = resolver({}, () => elicit('A?', z.object({ v: z.string() })));
      const b = resolver({ uses: { a } }, () => 1);
      return planResolvers('t', { b, a }, []);
    };
    const one = questionsOf(await round(make(), {}));
    const two = questionsOf(await round(make(), {}));
    expect(one).toEqual(two);
    // A retry served by "another worker" (a fresh plan) consumes the answer.
    const done = await retry(make(), {}, one, { r1: { action: 'accept', content: { v: 'x' } } });
    expect(valuesOf(done)).toEqual({ b: 1, a: { v: 'x' } });
  });
});
