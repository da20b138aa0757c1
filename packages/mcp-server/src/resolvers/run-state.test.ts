// What the request state carries between rounds, seen through runResolvers.
import { expect, it, describe as suite } from 'vitest';
import { z } from 'zod';
import { elicit, elicitResult, planResolvers, resolver, sample } from './index.js';
import { describe, drive, questionsOf, retry, round, stateOf, valuesOf } from './test-support/rounds.js';

const Confirm = z.object({ confirm: z.boolean() });
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

suite('runResolvers: recorded state', () => {
  it('restores a recorded answer through the live schema in later rounds (transforms applied again)', async () => {
    const qty = resolver({}, () => elicit('Qty?', z.object({ qty: z.string().transform(Number) })));
    const sure = resolver({ uses: { qty } }, ({ qty }) => elicit(`Order ${qty.qty}?`, Confirm));
    const plan = planResolvers('t', { qty, sure }, []);
    const first = questionsOf(await round(plan, {}));
    const second = questionsOf(await retry(plan, {}, first, { r0: accept({ qty: '7' }) }));
    expect(Object.values(second.inputRequests).map(describe)).toEqual(['Order 7?']);
    expect(JSON.parse(stateOf(second)).answers.r0.a).toEqual(accept({ qty: '7' })); // the wire content
    const done = await retry(plan, {}, second, { r1: accept({ confirm: true }) });
    expect(valuesOf(done)).toEqual({ qty: { qty: 7 }, sure: { confirm: true } });
  });

  it('carries a restored entry forward byte for byte', async () => {
    const a = resolver({}, () => elicit('A?', z.object({ note: z.string() })));
    const b = resolver({ uses: { a } }, () => elicit('B?', Confirm));
    const c = resolver({ uses: { b } }, () => elicit('C?', Confirm));
    const plan = planResolvers('t', { c }, []);
    const { states } = await drive(plan, {}, (request) =>
      describe(request) === 'A?' ? accept({ note: 'é\u2028"' }) : accept({ confirm: true }),
    );
    const entryOf = (state: string) => JSON.stringify(JSON.parse(state).answers.r2);
    expect(states).toHaveLength(3);
    expect(entryOf(states[1] as string)).toBe(entryOf(states[2] as string));
  });

  it('never stores plain values, even ones JSON cannot carry', async () => {
    const when = resolver({}, () => new Date(0));
    const fn = resolver({}, () => () => 'a function');
    const ask = resolver({ uses: { when, fn } }, () => elicit('Go?', Confirm));
    const plan = planResolvers('t', { ask, when, fn }, []);
    const first = questionsOf(await round(plan, {}));
    expect(first.requestState).toBeUndefined(); // nothing recorded: no state at all
    const done = valuesOf(await retry(plan, {}, first, { r0: accept({ confirm: true }) }));
    expect(done.when).toEqual(new Date(0));
    expect(typeof done.fn).toBe('function');
  });

  it('ignores a recorded refusal for a resolver that now computes its value', async () => {
    const mode = { ask: true };
    const r = resolver({}, () => (mode.ask ? elicitResult('Go?', Confirm) : 'computed'));
    const gate = resolver({ uses: { r } }, () => elicit('Then?', Confirm));
    const plan = planResolvers('t', { r, gate }, []);
    const first = questionsOf(await round(plan, {}));
    const second = questionsOf(await retry(plan, {}, first, { r0: { action: 'decline' } }));
    mode.ask = false;
    const done = await retry(plan, {}, second, { r1: accept({ confirm: true }) });
    expect(valuesOf(done)).toEqual({ r: 'computed', gate: { confirm: true } });
  });

  it('asks a reworded question again even when its old version was declined', async () => {
    const text = { value: 'Delete?' };
    const r = resolver({}, () => elicitResult(text.value, Confirm));
    const gate = resolver({ uses: { r } }, () => elicit('Then?', Confirm));
    const plan = planResolvers('t', { r, gate }, []);
    const first = questionsOf(await round(plan, {}));
    const second = questionsOf(await retry(plan, {}, first, { r0: { action: 'decline' } }));
    text.value = 'Delete everything?';
    const third = questionsOf(await retry(plan, {}, second, { r1: accept({ confirm: true }) }));
    expect(Object.values(third.inputRequests).map(describe)).toEqual(['Delete everything?']);
  });

  it('keeps lone surrogates in recorded answers across rounds', async () => {
    const lone = 'a\ud800b';
    const name = resolver({}, () => elicit('Name?', z.object({ name: z.string() })));
    const sure = resolver({ uses: { name } }, () => elicit('Sure?', Confirm));
    const { values } = await drive(planResolvers('t', { name, sure }, []), {}, (request) =>
      describe(request) === 'Name?' ? accept({ name: lone }) : accept({ confirm: true }),
    );
    expect(values.name).toEqual({ name: lone });
  });

  it('keeps the recorded answer of a resolver that could not run this round', async () => {
    // `late` was answered when `gate` had an answer; the gate's question is then reworded, so `late` is blocked
    // for a round: its answer is kept, not dropped, and not asked again once the gate is answered.
    const texts = { gate: 'Gate?' };
    const asked: string[] = [];
    const gate = resolver({}, () => elicit(texts.gate, Confirm));
    const late = resolver({ uses: { gate } }, () => elicit('Late?', Confirm));
    const last = resolver({ uses: { late } }, () => elicit('Last?', Confirm));
    const plan = planResolvers('t', { last }, []);
    const answer = (requests: Record<string, { method: string }>) =>
      Object.fromEntries(Object.keys(requests).map((key) => [key, accept({ confirm: true })]));
    const r1 = questionsOf(await round(plan, {}));
    const r2 = questionsOf(await round(plan, {}, answer(r1.inputRequests), r1.requestState));
    const r3 = questionsOf(await round(plan, {}, answer(r2.inputRequests), r2.requestState));
    expect(Object.values(r3.inputRequests).map(describe)).toEqual(['Last?']);
    texts.gate = 'Gate, reworded?';
    const r4 = questionsOf(await round(plan, {}, answer(r3.inputRequests), r3.requestState));
    asked.push(...Object.values(r4.inputRequests).map(describe));
    const r5 = questionsOf(await round(plan, {}, answer(r4.inputRequests), r4.requestState));
    asked.push(...Object.values(r5.inputRequests).map(describe));
    expect(asked).toEqual(['Gate, reworded?', 'Last?']);
  });
});

suite('runResolvers: sampling answers', () => {
  it('accepts a plain text completion for a request that offered tools', async () => {
    const s = resolver({}, () =>
      sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
        maxTokens: 9,
        tools: [{ name: 'lookup', inputSchema: { type: 'object' } }],
      }),
    );
    const text = { role: 'assistant', content: { type: 'text', text: 'no tool needed' }, model: 'm' };
    const { values } = await drive(planResolvers('t', { s }, []), {}, () => text);
    expect(values).toEqual({ s: text });
  });
});
