import { ErrorCode, type InputRequest, McpError } from '@boomerang/protocol';
import { sealed } from '@boomerang/server';
import { expect, it, describe as suite } from 'vitest';
import { z } from 'zod';
import {
  DEFAULT_MAX_STATE_BYTES,
  elicit,
  elicitResult,
  elicitUrl,
  elicitUrlResult,
  listRoots,
  planResolvers,
  ResolutionError,
  resolver,
  sample,
} from './index.js';
import { planOf } from './plan.js';
import { questionDigest } from './state.js';
import {
  describe,
  digestOf,
  drive,
  keyOf,
  questionsOf,
  retry,
  round,
  stateOf,
  valuesOf,
} from './test-support/rounds.js';

const Confirm = z.object({ confirm: z.boolean() });
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

/** A one-question tool whose message can be reworded between "deploys". */
function confirmTool(message = { text: 'Backorder?' }) {
  const backorder = resolver({}, () => elicit(message.text, Confirm));
  return { plan: planResolvers("tool 'order_book'", { backorder }, []), message };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

suite('runResolvers: binding answers to questions', () => {
  it('asks under a key that names the question (node key and digest), and seals nothing in a first round', async () => {
    const { plan } = confirmTool();
    const first = questionsOf(await round(plan, {}));
    expect(Object.keys(first.inputRequests)).toEqual([expect.stringMatching(/^r0\.[A-Za-z0-9_-]{22}$/)]);
    expect(first.requestState).toBeUndefined();
    expect(first).not.toHaveProperty('requestState');
  });

  it('consumes an answer only under the wire key of the question asked now', async () => {
    const { plan } = confirmTool();
    const first = questionsOf(await round(plan, {}));
    const yes = accept({ confirm: true });
    const digest = digestOf(first, 'r0');
    const wrong = `${digest.slice(0, -1)}${digest.endsWith('A') ? 'B' : 'A'}`;
    for (const responses of [
      { r0: yes },
      { [`r0.${wrong}`]: yes },
      { [`r1.${digest}`]: yes },
      { [digest]: yes },
    ]) {
      const again = questionsOf(await round(plan, {}, responses));
      expect(again.inputRequests).toEqual(first.inputRequests); // asked again, nothing consumed
    }
    expect(valuesOf(await round(plan, {}, { [keyOf(first, 'r0')]: yes }))).toEqual({
      backorder: { confirm: true },
    });
  });

  it('asks a reworded question again instead of consuming the stale answer', async () => {
    const { plan, message } = confirmTool();
    const first = questionsOf(await round(plan, {}));
    message.text = 'Backorder it, even though it may take weeks?';
    const second = await retry(plan, {}, first, { r0: accept({ confirm: true }) });
    expect(Object.values(questionsOf(second).inputRequests).map(describe)).toEqual([
      'Backorder it, even though it may take weeks?',
    ]);
  });

  it('keys every question by its own digest however many a resolver asks (its key cache is bounded)', async () => {
    const byN = resolver({ args: ['n'] }, ({ n }) => elicit(`Approve order ${String(n)}?`, Confirm));
    const plan = planResolvers('t', { byN }, ['n']);
    const keys = new Set<string>();
    for (let n = 0; n < 600; n++) {
      const first = questionsOf(await round(plan, { n }));
      const key = keyOf(first, 'r0');
      expect(key).toBe(`r0.${questionDigest(first.inputRequests[key] as InputRequest)}`);
      keys.add(key);
      // The answer under that key is consumed: the key the cache hands out is the one the client echoes.
      expect(valuesOf(await round(plan, { n }, { [key]: accept({ confirm: n % 2 === 0 }) }))).toEqual({
        byN: { confirm: n % 2 === 0 },
      });
    }
    expect(keys.size).toBe(600);
    expect(planOf(plan).nodes[0]?.wireKeys.size).toBeLessThanOrEqual(256);
    // Asked again after the cache was cleared: the same key as the first time.
    const again = questionsOf(await round(plan, { n: 0 }));
    expect(keyOf(again, 'r0')).toBe([...keys][0]);
  });

  it('asks again when only the schema changed', async () => {
    const schema = { current: Confirm as z.ZodObject };
    const r = resolver({}, () => elicit('Backorder?', schema.current));
    const plan = planResolvers('t', { r }, []);
    const first = questionsOf(await round(plan, {}));
    schema.current = z.object({ confirm: z.boolean(), note: z.string().optional() });
    const second = await retry(plan, {}, first, { r0: accept({ confirm: true }) });
    expect(second.kind).toBe('input_required');
  });

  it('drops a recorded answer to a reworded question but keeps its sibling', async () => {
    const texts = { a: 'A?', b: 'B?' };
    const a = resolver({}, () => elicit(texts.a, z.object({ v: z.string() })));
    const b = resolver({}, () => elicit(texts.b, z.object({ v: z.string() })));
    const gate = resolver({ uses: { a, b } }, ({ a, b }) => elicit(`${a.v}${b.v}?`, Confirm));
    const plan = planResolvers('t', { gate }, []);
    const first = questionsOf(await round(plan, {}));
    const second = questionsOf(
      await retry(plan, {}, first, { r1: accept({ v: 'x' }), r2: accept({ v: 'y' }) }),
    );
    expect(Object.values(second.inputRequests).map(describe)).toEqual(['xy?']);
    texts.a = 'A, reworded?';
    const third = questionsOf(await retry(plan, {}, second, { r0: accept({ confirm: true }) }));
    expect(Object.values(third.inputRequests).map(describe)).toEqual(['A, reworded?']);
    expect(JSON.parse(stateOf(third)).answers).toHaveProperty('r2'); // B's answer survives
    expect(JSON.parse(stateOf(third)).answers).not.toHaveProperty('r1');
  });

  it('uses a recorded answer only when the resolver asks that question again', async () => {
    const mode = { ask: true };
    const r = resolver({}, () => (mode.ask ? elicit('Go?', Confirm) : 'computed'));
    const after = resolver({ uses: { r } }, () => elicit('Then?', Confirm));
    const plan = planResolvers('t', { r, after }, []);
    const first = questionsOf(await round(plan, {}));
    const second = questionsOf(await retry(plan, {}, first, { r0: accept({ confirm: true }) }));
    mode.ask = false; // the resolver now computes its value: the recorded answer must not replace it
    const third = await retry(plan, {}, second, { r1: accept({ confirm: true }) });
    expect(valuesOf(third)).toEqual({ r: 'computed', after: { confirm: true } });
  });

  it('prefers the recorded answer over a re-sent one', async () => {
    const a = resolver({}, () => elicit('A?', z.object({ v: z.string() })));
    const b = resolver({ uses: { a } }, () => elicit('B?', Confirm));
    const plan = planResolvers('t', { a, b }, []);
    const first = questionsOf(await round(plan, {}));
    const second = questionsOf(await retry(plan, {}, first, { r0: accept({ v: 'first' }) }));
    const answers = {
      [keyOf(first, 'r0')]: accept({ v: 'changed my mind' }),
      [keyOf(second, 'r1')]: accept({ confirm: true }),
    };
    expect(valuesOf(await round(plan, {}, answers, second.requestState)).a).toEqual({ v: 'first' });
  });

  it('ignores unknown response keys and ghost state entries, and carries neither onward', async () => {
    const a = resolver({}, () => elicit('A?', Confirm));
    const b = resolver({ uses: { a } }, () => elicit('B?', Confirm));
    const plan = planResolvers('t', { b }, []);
    const first = questionsOf(await round(plan, {}));
    const state = JSON.stringify({
      v: 2,
      answers: { r9: { q: 'ghost', a: { action: 'accept', content: {} } } },
    });
    const responses = { [keyOf(first, 'r1')]: accept({ confirm: true }), zz: accept({}), r0: accept({}) };
    const second = questionsOf(await round(plan, {}, responses, state));
    expect(Object.keys(JSON.parse(stateOf(second)).answers)).toEqual(['r1']);
  });

  it('re-asks, without an error, when a recorded entry no longer validates', async () => {
    const { plan } = confirmTool();
    const first = questionsOf(await round(plan, {}));
    const forged = JSON.stringify({
      v: 2,
      answers: { r0: { q: digestOf(first, 'r0'), a: accept({ confirm: 'yes' }) } },
    });
    expect(questionsOf(await round(plan, {}, undefined, forged)).inputRequests).toEqual(first.inputRequests);
  });

  it('reads a state it cannot parse, or of another version, as no progress', async () => {
    const a = resolver({}, () => elicit('A?', Confirm));
    const b = resolver({ uses: { a } }, () => elicit('B?', Confirm));
    const plan = planResolvers('t', { b }, []);
    const first = questionsOf(await round(plan, {}));
    const second = questionsOf(await retry(plan, {}, first, { r1: accept({ confirm: true }) }));
    const recorded = JSON.parse(stateOf(second)).answers;
    const states = ['', 'not json', '[]', '{"v":2}', JSON.stringify({ v: 1, answers: recorded, asked: {} })];
    for (const state of states) {
      const responses = { [keyOf(second, 'r0')]: accept({ confirm: true }) };
      expect(questionsOf(await round(plan, {}, responses, state)).inputRequests).toEqual(first.inputRequests);
    }
  });
});

suite("runResolvers: answerBinding 'round'", () => {
  const strict = (message = { text: 'Backorder?' }) => {
    const backorder = resolver({}, () => elicit(message.text, Confirm));
    return planResolvers("tool 'order_book'", { backorder }, [], { answerBinding: 'round' });
  };
  const yes = accept({ confirm: true });

  it('seals the asked digests in every round, the first included', async () => {
    const first = questionsOf(await round(strict(), {}));
    expect(JSON.parse(stateOf(first))).toEqual({ v: 2, answers: {}, asked: { r0: digestOf(first, 'r0') } });
  });

  it('consumes an answer under the right key only with the state of the round that asked it', async () => {
    const plan = strict();
    const first = questionsOf(await round(plan, {}));
    const key = keyOf(first, 'r0');
    expect(questionsOf(await round(plan, {}, { [key]: yes })).inputRequests).toEqual(first.inputRequests);
    const otherRound = JSON.stringify({ v: 2, answers: {}, asked: {} });
    expect(questionsOf(await round(plan, {}, { [key]: yes }, otherRound)).inputRequests).toEqual(
      first.inputRequests,
    );
    expect(valuesOf(await retry(plan, {}, first, { r0: yes }))).toEqual({ backorder: { confirm: true } });
  });

  it('still asks a reworded question again', async () => {
    const message = { text: 'Backorder?' };
    const plan = strict(message);
    const first = questionsOf(await round(plan, {}));
    message.text = 'Backorder, even though it may take weeks?';
    const second = questionsOf(await retry(plan, {}, first, { r0: yes }));
    expect(Object.values(second.inputRequests).map(describe)).toEqual([message.text]);
  });

  it('rejects an unknown binding at planning time', () => {
    const backorder = resolver({}, () => elicit('B?', Confirm));
    expect(() => planResolvers('t', { backorder }, [], { answerBinding: 'state' as never })).toThrow(
      /"answerBinding" expected 'question' or 'round'/,
    );
  });
});

suite('runResolvers: validating answers', () => {
  const cases: [string, unknown, RegExp][] = [
    [
      'a sampling result',
      { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' },
      /non-elicitation response/,
    ],
    ['an accept without content', { action: 'accept' }, /accepted elicitation with no content/],
    ['content of the wrong shape', accept({ confirm: 'yes' }), /does not match the requested schema/],
    ['a bogus action', { action: 'maybe' }, /non-elicitation response/],
    ['not an object', 'yes', /non-elicitation response/],
  ];
  for (const [name, answer, message] of cases) {
    it(`answers -32602 naming the resolver for ${name}, without validation internals`, async () => {
      const { plan } = confirmTool();
      const first = questionsOf(await round(plan, {}));
      const error = await rejection(retry(plan, {}, first, { r0: answer } as never));
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((error as McpError).message).toMatch(/^Resolver for 'backorder' received /);
      expect((error as McpError).message).toMatch(message);
      expect((error as McpError).message).not.toMatch(/zod|invalid_type|expected|path/i);
      expect((error as McpError).data).toBeUndefined();
    });
  }

  it('hands the consumer the parsed output of the schema (defaults and transforms applied)', async () => {
    const r = resolver({}, () =>
      elicit('Qty?', z.object({ qty: z.string().transform(Number), gift: z.boolean().default(false) })),
    );
    const { values } = await drive(planResolvers('t', { r }, []), {}, () => accept({ qty: '3' }));
    expect(values).toEqual({ r: { qty: 3, gift: false } });
  });

  it('names a nested resolver by its path', async () => {
    const inner = resolver({}, () => elicit('Inner?', Confirm));
    const outer = resolver({ uses: { inner } }, () => 1);
    const plan = planResolvers('t', { outer }, []);
    const first = questionsOf(await round(plan, {}));
    const error = await rejection(retry(plan, {}, first, { r1: { action: 'decline' } }));
    expect((error as Error).message).toBe(
      "Resolver for 'outer.inner' could not resolve: elicitation was declined",
    );
  });
});

suite('runResolvers: decline and cancel', () => {
  for (const action of ['decline', 'cancel'] as const) {
    it(`fails with ResolutionError when an elicit question is ${action}d`, async () => {
      const { plan } = confirmTool();
      const first = questionsOf(await round(plan, {}));
      const error = await rejection(retry(plan, {}, first, { r0: { action } }));
      expect(error).toBeInstanceOf(ResolutionError);
      expect(error).toMatchObject({ resolver: 'backorder', action });
      expect((error as Error).message).toBe(
        `Resolver for 'backorder' could not resolve: elicitation was ${action === 'decline' ? 'declined' : 'cancelled'}`,
      );
    });
  }

  it('hands every outcome to an elicitResult consumer, and records a refusal so it is not asked again', async () => {
    const asked: string[] = [];
    const choice = resolver({}, () => elicitResult('Delete?', Confirm));
    const next = resolver({ uses: { choice } }, ({ choice }) =>
      choice.action === 'accept' ? 'deleted' : elicit('Archive instead?', Confirm),
    );
    const plan = planResolvers('t', { choice, next }, []);
    const { values } = await drive(plan, {}, (request) => {
      asked.push(describe(request));
      return describe(request) === 'Delete?' ? { action: 'decline' } : accept({ confirm: true });
    });
    expect(asked).toEqual(['Delete?', 'Archive instead?']);
    expect(values).toEqual({ choice: { action: 'decline' }, next: { confirm: true } });
    const accepted = await drive(plan, {}, () => accept({ confirm: true }));
    expect(accepted.values).toEqual({
      choice: { action: 'accept', content: { confirm: true } },
      next: 'deleted',
    });
    const cancelled = await drive(planResolvers('t', { choice }, []), {}, () => ({ action: 'cancel' }));
    expect(cancelled.values).toEqual({ choice: { action: 'cancel' } });
  });

  it('asks URL elicitations and resolves them to the action', async () => {
    const signIn = resolver({}, () => elicitUrl('Sign in to continue', 'https://auth.example/start?s=1'));
    const optional = resolver({}, () =>
      elicitUrlResult('Link your account?', new URL('https://auth.example/link')),
    );
    const plan = planResolvers('t', { signIn, optional }, []);
    const first = questionsOf(await round(plan, {}));
    expect(first.inputRequests[keyOf(first, 'r0')]).toEqual({
      method: 'elicitation/create',
      params: { mode: 'url', message: 'Sign in to continue', url: 'https://auth.example/start?s=1' },
    });
    const done = await retry(plan, {}, first, { r0: { action: 'accept' }, r1: { action: 'decline' } });
    expect(valuesOf(done)).toEqual({ signIn: { action: 'accept' }, optional: { action: 'decline' } });
    const refused = await rejection(
      retry(plan, {}, first, { r0: { action: 'cancel' }, r1: { action: 'accept' } }),
    );
    expect(refused).toBeInstanceOf(ResolutionError);
  });
});

suite('runResolvers: sampling and roots', () => {
  const completion = {
    role: 'assistant',
    content: { type: 'text', text: 'A haiku' },
    model: 'm',
    stopReason: 'endTurn',
  };

  it('asks for a sample with tools and injects the validated CreateMessageResult', async () => {
    const tool = { name: 'lookup', inputSchema: { type: 'object' as const } };
    let samples = 0;
    const haiku = resolver({ args: ['topic'] }, ({ topic }: { topic: string }) => {
      samples++;
      return sample({
        messages: [{ role: 'user', content: { type: 'text', text: `A haiku on ${topic}` } }],
        maxTokens: 64,
        tools: [tool],
        toolChoice: { mode: 'auto' },
      });
    });
    const after = resolver({ uses: { haiku } }, () => elicit('Publish?', Confirm));
    const plan = planResolvers('t', { haiku, after }, ['topic']);
    const first = questionsOf(await round(plan, { topic: 'rain' }));
    expect(first.inputRequests[keyOf(first, 'r0')]).toMatchObject({
      method: 'sampling/createMessage',
      params: { tools: [tool] },
    });
    const toolUse = {
      ...completion,
      content: [{ type: 'tool_use', id: 'u1', name: 'lookup', input: {} }],
      stopReason: 'toolUse',
    };
    const second = questionsOf(await retry(plan, { topic: 'rain' }, first, { r0: toolUse } as never));
    const done = await retry(plan, { topic: 'rain' }, second, { r1: accept({ confirm: true }) });
    expect(valuesOf(done).haiku).toEqual(toolUse); // recorded, not sampled twice
    expect(samples).toBe(3);
  });

  it('answers -32602 for a sampling answer of the wrong kind', async () => {
    const s = resolver({}, () => sample({ messages: [], maxTokens: 5 }));
    const plan = planResolvers('t', { s }, []);
    const first = questionsOf(await round(plan, {}));
    const error = await rejection(retry(plan, {}, first, { r0: { action: 'decline' } }));
    expect(error).toMatchObject({
      code: -32602,
      message: "Resolver for 's' received a response of the wrong kind (expected a sampling result)",
    });
  });

  it('asks for roots and injects { roots }; a wrong kind is -32602', async () => {
    const roots = resolver({}, () => listRoots());
    const plan = planResolvers('t', { roots }, []);
    const first = questionsOf(await round(plan, {}));
    expect(Object.values(first.inputRequests)).toEqual([{ method: 'roots/list' }]);
    const answer = { roots: [{ uri: 'file:///src', name: 'src' }] };
    expect(valuesOf(await retry(plan, {}, first, { r0: answer }))).toEqual({ roots: answer });
    const error = await rejection(retry(plan, {}, first, { r0: completion } as never));
    expect(error).toMatchObject({
      code: -32602,
      message: "Resolver for 'roots' received a response of the wrong kind (expected a roots list)",
    });
  });
});

suite('runResolvers: the state cap', () => {
  const big = 'x'.repeat(20_000);
  const chain = () => {
    const a = resolver({}, () => sample({ messages: [], maxTokens: 5 }));
    const b = resolver({ uses: { a } }, () => elicit('More?', Confirm));
    return { a, b };
  };
  const answer = { role: 'assistant', content: { type: 'text', text: big }, model: 'm' };

  it('fails clearly when the recorded state would exceed the default 20 KiB', async () => {
    const { a, b } = chain();
    const plan = planResolvers("tool 'poet'", { a, b }, []);
    expect(plan.maxStateBytes).toBe(20_480);
    const first = questionsOf(await round(plan, {}));
    const twice = { ...answer, content: { type: 'text', text: big + big } };
    const error = await rejection(retry(plan, {}, first, { r0: twice }));
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(
      /^tool 'poet': the request state of this call would be \d+ bytes, over the 20480-byte cap/,
    );
    // Under the cap, the same flow records the answer.
    expect(stateOf(questionsOf(await retry(plan, {}, first, { r0: answer }))).length).toBeGreaterThan(20_000);
  });

  it("the default cap keeps every accepted state under the sealer's 65,536-character token limit", async () => {
    const envelope = sealed({ keys: [new Uint8Array(32).fill(7)], audience: 'a'.repeat(255) });
    // The worst case for sealing: JSON-string escaping doubles every quote and backslash.
    const state = '"\\'.repeat(DEFAULT_MAX_STATE_BYTES / 2);
    expect(new TextEncoder().encode(state).length).toBe(DEFAULT_MAX_STATE_BYTES);
    const binding = { method: 'tools/call', target: 't', arguments: {}, auth: undefined };
    expect((await envelope.seal(state, binding)).length).toBeLessThanOrEqual(65_536);
  });

  it('takes a configurable cap', async () => {
    const { a, b } = chain();
    const plan = planResolvers('t', { a, b }, [], { maxStateBytes: 1024 });
    const first = questionsOf(await round(plan, {}));
    await expect(retry(plan, {}, first, { r0: answer })).rejects.toThrow(/1024-byte cap/);
  });

  it('counts UTF-8 bytes, not UTF-16 code units', async () => {
    const r = resolver({}, () => elicit('Name?', z.object({ name: z.string() })));
    const after = resolver({ uses: { r } }, () => elicit('Sure?', Confirm));
    const plan = planResolvers('t', { r, after }, [], { maxStateBytes: 400 });
    const first = questionsOf(await round(plan, {}));
    const name = '€'.repeat(100); // 100 code units, 300 bytes
    await expect(retry(plan, {}, first, { r0: accept({ name }) })).rejects.toThrow(RangeError);
  });
});
