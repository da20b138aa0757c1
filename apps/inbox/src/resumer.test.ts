// Resumers against the real bookshop and the counting server over HTTP: flows go round by round to their result,
// each answered round is sent once, and every way a resume can go wrong ends the flow with words for the page.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCountingServer } from './counting-server.js';
import type { Flow } from './flow.js';
import { createResumer } from './resumer.js';
import { createConnections } from './servers.js';
import { answersFor, startWorld, type World } from './test-support/world.js';
import { runJobs } from './worker.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world?.close());
beforeEach(() => world.reset());

async function park(tool: string, args: Record<string, unknown>, server = 'bookshop'): Promise<Flow> {
  const [flow] = await runJobs([{ tool, arguments: args, server }], {
    store: world.store,
    connections: world.connections,
    server,
  });
  if (flow?.status !== 'pending')
    throw new Error(`expected a pending flow, got ${flow?.status}: ${flow?.error}`);
  return flow;
}

const accept = (content: Record<string, unknown>) => ({ action: 'accept' as const, content });
/** Approves the counting server's question (its key is the server's to choose). */
const ok = (flow: Flow) => answersFor(flow, [[/^Approve/, accept({ ok: true })]]);

describe('a resumer', () => {
  it('takes an order over two rounds to its result, recording who answered and who sent each round', async () => {
    const resumer = createResumer({ store: world.store, connections: world.connections, id: 'r1' });
    const parked = await park('order_book', { title: 'Solaris' });
    const round1 = answersFor(parked, [
      [/Backorder/, accept({ confirm: true, notify: ['email', 'sms'] })],
      [/gift/, accept({ wrap: true, note: 'Happy birthday!' })],
    ]);
    expect(await world.store.answer(parked.id, 1, round1, 'alice')).toEqual({ ok: true });
    expect(await resumer.runOnce()).toBe(1);
    const second = (await world.store.get(parked.id)) as Flow;
    expect(second).toMatchObject({ status: 'pending', round: 2 });
    expect(Object.values(second.continuation?.inputRequests ?? {})).toMatchObject([
      { params: { message: 'How should "Solaris" ship?' } },
    ]);
    const round2 = answersFor(second, [
      [/ship/, accept({ shipping: 'express', copies: 2, binding: 'hardcover' })],
    ]);
    expect(await world.store.answer(parked.id, 2, round2, 'bob')).toEqual({ ok: true });
    expect(await resumer.runOnce()).toBe(1);
    const done = await world.store.get(parked.id);
    expect(done?.status).toBe('completed');
    expect(done?.result).toMatchObject({
      content: [
        {
          type: 'text',
          text: expect.stringMatching(
            /^Ordered 2 × "Solaris" \(hardcover\) on backorder, gift-wrapped with a card: "Happy birthday!": express shipping/,
          ),
        },
      ],
    });
    expect(await world.store.rounds(parked.id)).toMatchObject([
      { round: 1, answeredBy: 'alice', resumedBy: 'r1', outcome: 'next round (2)' },
      { round: 2, answeredBy: 'bob', resumedBy: 'r1', outcome: 'completed' },
    ]);
    expect(resumer.stats).toEqual({ claimed: 2, completed: 1, nextRound: 1, failed: 0, rejected: 0 });
    expect(await resumer.runOnce()).toBe(0);
  });

  it('answers sampling with what a person wrote, and roots with what they ticked', async () => {
    const resumer = createResumer({ store: world.store, connections: world.connections });
    const blurb = await park('write_blurb', { title: 'Dune' });
    const wishlist = await park('export_wishlist', { titles: ['Dune'] });
    await world.store.answer(
      blurb.id,
      1,
      answersFor(blurb, [
        [
          /sampling/,
          { role: 'assistant', content: { type: 'text', text: 'Sand, spice, fate.' }, model: 'human:alice' },
        ],
      ]),
      'alice',
    );
    await world.store.answer(
      wishlist.id,
      1,
      answersFor(wishlist, [[/roots/, { roots: [world.roots[1]] }]]),
      'alice',
    );
    expect(await resumer.runOnce()).toBe(2);
    const text = async (id: string) => {
      const result = (await world.store.get(id))?.result as { content: { text: string }[] } | undefined;
      return result?.content[0]?.text;
    };
    expect(await text(blurb.id)).toBe('Shelf-talker for "Dune" (human:alice): Sand, spice, fate.');
    expect(await text(wishlist.id)).toContain('file:///home/alice/books');
  });

  it('a declined form is sent as declined: the tool’s answer is an isError result the model can read', async () => {
    const resumer = createResumer({ store: world.store, connections: world.connections });
    const flow = await park('approve', { n: 1 }, 'approvals');
    await world.store.answer(flow.id, 1, answersFor(flow, [[/^Approve/, { action: 'decline' }]]), 'alice');
    await resumer.runOnce();
    expect(await world.store.get(flow.id)).toMatchObject({ status: 'completed', result: { isError: true } });
    expect(world.counting.runs.get(1)).toBeUndefined();
  });

  it('two resumers racing over the same answered flows resume each exactly once', async () => {
    const flows = await Promise.all(
      Array.from({ length: 30 }, (_, i) => park('approve', { n: 100 + i }, 'approvals')),
    );
    for (const flow of flows) await world.store.answer(flow.id, 1, ok(flow), 'alice');
    const a = createResumer({ store: world.store, connections: world.connections, id: 'a', batch: 4 });
    const b = createResumer({
      store: world.store,
      connections: createConnections(world.connections.servers),
      id: 'b',
      batch: 4,
    });
    const drain = async (r: typeof a) => {
      while ((await r.runOnce()) > 0);
    };
    await Promise.all([drain(a), drain(b), drain(a)]);
    expect(a.stats.claimed + b.stats.claimed).toBe(30);
    for (let i = 0; i < 30; i++) expect(world.counting.runs.get(100 + i)).toBe(1);
    expect(await world.store.counts()).toEqual({ completed: 30 });
  });

  it('a requestState changed in storage is refused by the server: rejected, with words for the page', async () => {
    const resumer = createResumer({ store: world.store, connections: world.connections });
    const flow = await park('approve', { n: 2 }, 'approvals');
    await world.db.query(
      `UPDATE inbox_flows SET continuation = json_build_object(
         'version', 1, 'method', 'tools/call', 'params', continuation -> 'params',
         'inputRequests', continuation -> 'inputRequests', 'requestState', 'sl1_forged', 'round', 1,
         'createdAt', continuation ->> 'createdAt') WHERE id = $1`,
      [flow.id],
    );
    await world.store.answer(flow.id, 1, ok(flow), 'alice');
    await resumer.runOnce();
    const rejected = await world.store.get(flow.id);
    expect(rejected?.status).toBe('rejected');
    expect(rejected?.error).toMatch(/^The server refused the flow’s state/);
    expect(world.counting.runs.get(2)).toBeUndefined();
    expect(resumer.stats.rejected).toBe(1);
  });

  it('arguments changed in storage are refused too (the state is bound to them)', async () => {
    const resumer = createResumer({ store: world.store, connections: world.connections });
    const flow = await park('approve', { n: 3 }, 'approvals');
    const tampered = { ...flow.continuation, params: { name: 'approve', arguments: { n: 999 } } };
    await world.db.query('UPDATE inbox_flows SET continuation = $2::json WHERE id = $1', [
      flow.id,
      JSON.stringify(tampered),
    ]);
    await world.store.answer(flow.id, 1, ok(flow), 'alice');
    await resumer.runOnce();
    expect((await world.store.get(flow.id))?.status).toBe('rejected');
    expect(world.counting.runs.get(999)).toBeUndefined();
  });

  it('a stored continuation that is not one fails before anything is sent', async () => {
    const resumer = createResumer({ store: world.store, connections: world.connections });
    const flow = await park('approve', { n: 4 }, 'approvals');
    await world.db.query('UPDATE inbox_flows SET continuation = $2::json WHERE id = $1', [
      flow.id,
      JSON.stringify({ ...flow.continuation, version: 2 }),
    ]);
    await world.store.answer(flow.id, 1, ok(flow), 'alice');
    await resumer.runOnce();
    const failed = await world.store.get(flow.id);
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toMatch(/^The stored continuation cannot be resumed: .*version 2 is not 1/);
  });

  it('state that expired on the server (its TTL) is rejected, not retried', async () => {
    const shortLived = await startCountingServer({ ttlSeconds: 1 });
    const connections = createConnections({ approvals: shortLived.url.href });
    try {
      const resumer = createResumer({ store: world.store, connections });
      const [flow] = await runJobs([{ tool: 'approve', arguments: { n: 5 } }], {
        store: world.store,
        connections,
        server: 'approvals',
      });
      await world.store.answer(flow?.id as string, 1, ok(flow as Flow), 'alice');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await resumer.runOnce();
      expect((await world.store.get(flow?.id as string))?.status).toBe('rejected');
      expect(await resumer.runOnce()).toBe(0);
      expect(shortLived.total()).toBe(0);
    } finally {
      await connections.close();
      await shortLived.close();
    }
  });

  it('a server that is gone, or a server the inbox does not know, fails the flow with the reason', async () => {
    const flow = await park('approve', { n: 6 }, 'approvals');
    const other = await park('approve', { n: 7 }, 'approvals');
    await world.db.query("UPDATE inbox_flows SET server = 'retired' WHERE id = $1", [other.id]);
    await world.store.answer(flow.id, 1, ok(flow), 'alice');
    await world.store.answer(other.id, 1, ok(other), 'alice');
    const down = createConnections({ approvals: 'http://127.0.0.1:9/mcp' });
    const resumer = createResumer({ store: world.store, connections: down });
    await resumer.runOnce();
    await down.close();
    expect((await world.store.get(flow.id))?.status).toBe('failed');
    expect((await world.store.get(flow.id))?.error).not.toBe('');
    expect(await world.store.get(other.id)).toMatchObject({
      status: 'failed',
      error: 'The inbox has no MCP server named "retired".',
    });
  });

  it('a flow whose resumer vanished mid-resume is failed after its lease, never sent again', async () => {
    const flow = await park('approve', { n: 8 }, 'approvals');
    await world.store.answer(flow.id, 1, ok(flow), 'alice');
    expect(await world.store.claim('ghost', 1)).toHaveLength(1);
    const resumer = createResumer({ store: world.store, connections: world.connections, leaseMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await resumer.runOnce()).toBe(0);
    expect((await world.store.get(flow.id))?.error).toMatch(/not sent again/);
    expect(world.counting.runs.get(8)).toBeUndefined();
  });

  it('polls by itself once started; wake() cuts the wait short; stop() waits for the resumes in flight', async () => {
    const resumer = createResumer({ store: world.store, connections: world.connections, pollMs: 60_000 });
    resumer.start();
    resumer.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const flow = await park('approve', { n: 9 }, 'approvals');
      await world.store.answer(flow.id, 1, ok(flow), 'alice');
      resumer.wake();
      const started = Date.now();
      while ((await world.store.get(flow.id))?.status !== 'completed') {
        if (Date.now() - started > 10_000) throw new Error('not resumed');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await resumer.stop();
    }
    expect(world.counting.runs.get(9)).toBe(1);
  });

  it('keeps polling when the store fails, reporting each error', async () => {
    const errors: unknown[] = [];
    const broken = { ...world.store, claim: () => Promise.reject(new Error('store down')) };
    const resumer = createResumer({
      store: broken,
      connections: world.connections,
      pollMs: 5,
      onError: (e) => errors.push(e),
    });
    resumer.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await resumer.stop();
    expect(errors.length).toBeGreaterThan(1);
    expect(String(errors[0])).toContain('store down');
  });
});
