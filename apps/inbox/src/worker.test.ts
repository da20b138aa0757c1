// The worker against the real bookshop over HTTP: every kind of question is parked, nothing waits for a person,
// and every failure becomes a failed flow that says what happened.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BOOKSHOP_PLAN } from './bookshop-plan.js';
import type { Flow } from './flow.js';
import { createConnections } from './servers.js';
import { startWorld, type World } from './test-support/world.js';
import { parseJobs, runJobs } from './worker.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world?.close());
beforeEach(() => world.reset());

const kinds = (flow: Flow) =>
  Object.values(flow.continuation?.inputRequests ?? {}).map((q) =>
    q.method === 'elicitation/create' ? `${q.params.mode ?? 'form'}: ${q.params.message}` : q.method,
  );

describe('runJobs', () => {
  it('parks every question of the bookshop plan as a pending flow and moves on', async () => {
    const seen: string[] = [];
    const before = Date.now();
    const flows = await runJobs(BOOKSHOP_PLAN, {
      store: world.store,
      connections: world.connections,
      server: 'bookshop',
      roundSeconds: 120,
      onFlow: (flow) => seen.push(flow.tool),
    });
    expect(seen).toEqual(BOOKSHOP_PLAN.map((job) => job.tool));
    expect(flows.map((f) => [f.tool, f.status])).toEqual([
      ['order_book', 'pending'],
      ['order_book', 'pending'],
      ['write_blurb', 'pending'],
      ['export_wishlist', 'pending'],
      ['order_history', 'pending'],
      ['order_book', 'pending'],
      ['check_stock', 'completed'],
    ]);
    const [solaris, dune, blurb, wishlist, history, leGuin, stock] = flows as Flow[];
    expect(kinds(solaris as Flow)).toEqual([
      'form: "Solaris" is out of stock. Backorder it?',
      'form: Is it a gift?',
    ]);
    expect(solaris).toMatchObject({ answerers: ['alice'], round: 1, roundMs: 120_000, server: 'bookshop' });
    expect(solaris?.continuation).toMatchObject({
      version: 1,
      method: 'tools/call',
      params: { name: 'order_book', arguments: { title: 'Solaris' } },
    });
    // Nothing recorded yet: the bookshop (answerBinding 'question', the default) seals no state in round 1.
    expect(solaris?.continuation).not.toHaveProperty('requestState');
    expect(solaris?.deadline).toBeGreaterThanOrEqual(before + 120_000);
    expect(kinds(dune as Flow)).toEqual(['form: Is it a gift?', 'form: How should "Dune" ship?']);
    expect(dune?.answerers).toBeUndefined();
    expect(kinds(blurb as Flow)).toEqual(['sampling/createMessage']);
    expect(kinds(wishlist as Flow)).toEqual(['roots/list']);
    expect(kinds(history as Flow)).toEqual(['url: Sign in to Bookshop to see your order history']);
    expect(leGuin?.answerers).toEqual(['bob']);
    expect(stock?.result).toMatchObject({
      content: [{ type: 'text', text: expect.stringContaining('3 in stock') }],
    });
    expect(await world.store.counts()).toEqual({ pending: 6, completed: 1 });
  });

  it('records what went wrong as failed flows: a server error, an undeclared capability, an unknown server', async () => {
    const noRoots = createConnections({ bookshop: world.bookshop.endpoint.url.href });
    try {
      const flows = await runJobs(
        [
          { tool: 'no_such_tool' },
          { tool: 'order_book', arguments: {} },
          { tool: 'export_wishlist', arguments: { titles: ['Dune'] } },
          { tool: 'check_stock', arguments: { title: 'Dune' }, server: 'elsewhere' },
        ],
        { store: world.store, connections: noRoots, server: 'bookshop' },
      );
      expect(flows.map((f) => f.status)).toEqual(['failed', 'completed', 'failed', 'failed']);
      expect(flows[0]?.error).toMatch(/^The server answered error -32602: .*no_such_tool/);
      // Arguments the tool refuses are the tool's answer (an isError result the model can read), not a failure.
      expect(flows[1]?.result).toMatchObject({ isError: true });
      // The inbox declared no roots capability here, so the bookshop may not ask for them.
      expect(flows[2]?.error).toMatch(/^The server answered error -32021/);
      expect(flows[3]?.error).toBe('The inbox has no MCP server named "elsewhere".');
      expect(flows[3]?.server).toBe('elsewhere');
    } finally {
      await noRoots.close();
    }
  });

  it('a server that is not there is a failed flow too, and the worker goes on', async () => {
    const gone = createConnections({
      down: 'http://127.0.0.1:9/mcp',
      bookshop: world.bookshop.endpoint.url.href,
    });
    try {
      const flows = await runJobs(
        [
          { tool: 'check_stock', arguments: { title: 'Dune' } },
          { tool: 'check_stock', arguments: { title: 'Dune' }, server: 'bookshop' },
        ],
        { store: world.store, connections: gone, server: 'down' },
      );
      expect(flows[0]).toMatchObject({ status: 'failed', server: 'down' });
      expect(flows[0]?.error).not.toBe('');
      expect(flows[1]?.status).toBe('completed');
    } finally {
      await gone.close();
    }
  });
});

describe('parseJobs', () => {
  it('accepts a plan', () => {
    expect(parseJobs(BOOKSHOP_PLAN)).toEqual(BOOKSHOP_PLAN);
    expect(parseJobs([])).toEqual([]);
  });

  it.each<[string, unknown, RegExp]>([
    ['not a list', { tool: 'x' }, /JSON array/],
    ['a job that is not an object', ['x'], /jobs\[0\] expected an object/],
    ['no tool', [{}], /jobs\[0\]\.tool/],
    ['arguments that are a list', [{ tool: 't', arguments: [] }], /arguments expected an object/],
    ['answerers that are not names', [{ tool: 't', answerers: ['a', ''] }], /answerers/],
    ['a zero round', [{ tool: 't', roundSeconds: 0 }], /roundSeconds/],
    ['a server that is not a name', [{ tool: 't', server: 3 }], /server/],
    ['a member it does not know', [{ tool: 't', when: 'now' }], /unknown members: when/],
  ])('throws TypeError for %s', (_, jobs, message) => {
    expect(() => parseJobs(jobs)).toThrow(TypeError);
    expect(() => parseJobs(jobs)).toThrow(message);
  });
});
