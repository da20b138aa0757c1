import { readFileSync } from 'node:fs';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { describe, expect, it, vi } from 'vitest';
import {
  addTool,
  audited,
  auditLines,
  demo,
  search,
  serve,
  server,
  shutdown,
  watched,
  worker,
} from './server.examples.js';
import { meta, request, resultOf } from './test-support/wire.js';

describe('README examples', () => {
  it('README.md quotes every example region verbatim', () => {
    const source = readFileSync(new URL('./server.examples.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const regions = [...source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\n+\/\/ #endregion \1/g)];
    expect(regions.map((m) => m[1])).toEqual([
      'provisioner',
      'wire',
      'serve',
      'progress',
      'listen',
      'methods',
      'middleware',
    ]);
    for (const [, , body] of regions) expect(readme).toContain(body?.trim());
  });

  it('provisioner: two rounds over the wire, state sealed in between', async () => {
    expect(await demo()).toBe('Provisioned orders in eu-west-1');
  });

  it('provisioner: lists its tool with the configured cache hints', async () => {
    const result = resultOf(await server.handle(request('tools/list')));
    expect(result).toMatchObject({ tools: [{ name: 'provision' }], ttlMs: 60_000, cacheScope: 'public' });
  });

  it('serve: answers over a stream transport until aborted', async () => {
    const [client, serverEnd] = createInMemoryPair();
    const stop = new AbortController();
    const serving = serve(serverEnd, stop.signal);
    await client.send(request('server/discover', {}, { id: 'd' }) as never);
    for await (const message of client.messages) {
      expect(message).toMatchObject({ id: 'd', result: { capabilities: { tools: {} } } });
      break;
    }
    stop.abort();
    await serving;
  });

  it('worker: progress and log notifications only when asked for', async () => {
    const sent: unknown[] = [];
    const notify = (n: unknown) => {
      sent.push(n);
    };
    await worker.handle(request('tools/call', { name: 'w' }), { notify });
    expect(sent).toEqual([]);
    const asked = { _meta: meta({}, { progressToken: 1, 'io.modelcontextprotocol/logLevel': 'info' }) };
    await worker.handle(request('tools/call', { name: 'w', ...asked }), { notify });
    expect(sent).toHaveLength(6);
  });

  it('listen: a stream hears about a tool added at run time, and ends on shutdown', async () => {
    const sent: unknown[] = [];
    const listening = watched.handle(
      request('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id: 'w' }),
      { notify: (n) => void sent.push(n) },
    );
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    await addTool({ name: 'extra', inputSchema: { type: 'object' } });
    expect(sent).toMatchObject([
      { method: 'notifications/subscriptions/acknowledged' },
      { method: 'notifications/tools/list_changed' },
    ]);
    await shutdown();
    expect(resultOf(await listening)).toMatchObject({ resultType: 'complete' });
  });

  it('methods: a vendor method and an extension method that asks', async () => {
    const hits = resultOf(await search.handle(request('acme/search', { query: 'e' })));
    expect(hits).toMatchObject({ resultType: 'complete', hits: ['Dune', 'Emma', 'Ulysses'] });
    const discovered = resultOf(await search.handle(request('server/discover')));
    expect(discovered.capabilities).toEqual({ extensions: { 'acme/holds': {} } });
    const caps = { elicitation: {} };
    const first = resultOf(await search.handle(request('acme/holds/place', { title: 'Dune' }, { caps })));
    expect(first).toMatchObject({ resultType: 'input_required' });
    const answered = request(
      'acme/holds/place',
      { title: 'Dune', inputResponses: { confirm: { action: 'accept', content: { ok: true } } } },
      { caps },
    );
    expect(resultOf(await search.handle(answered))).toMatchObject({ held: 'Dune' });
  });
});

describe('middleware example', () => {
  it('logs each request with its round and outcome, and refuses a suspended tenant before any handler', async () => {
    expect(resultOf(await audited.handle(request('tools/list'))).tools).toEqual([]);
    const suspended = request('tools/list');
    (suspended.params as { _meta: Record<string, unknown> })._meta = meta({}, { 'acme/tenant': 'globex' });
    expect(await audited.handle(suspended)).toMatchObject({
      error: { code: -32600, message: 'Tenant globex is suspended' },
    });
    expect(auditLines).toEqual([expect.stringMatching(/^tools\/list round 0: complete in [\d.]+ ms$/)]);
  });
});
