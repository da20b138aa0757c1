// `client.request()`: any method with the MRTR loop, results validated by a Standard Schema; extension
// capabilities both ways.
import { hasExtension, inputRequired, McpError, type StandardSchemaV1 } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  askFor,
  cacheable,
  deferred,
  harness,
  NO_REPLY,
  type Reply,
  script,
} from './test-support/fake-server.js';

const Search = z.object({ hits: z.array(z.string()), total: z.number() });

/** A vendor method that asks which index to search, then answers from the retry alone. */
const search: Reply = (request) => {
  const { inputResponses, requestState, query } = request.params;
  if (requestState === undefined) {
    return inputRequired({ inputRequests: { index: askFor('index') }, requestState: `search:${query}` });
  }
  const index = inputResponses.index.content.index;
  return { resultType: 'complete', hits: [`${query} in ${index}`], total: 1 };
};

describe('client.request(method, params, { result })', () => {
  it('runs a vendor method through the MRTR loop: two rounds, the callback answers, the schema types it', async () => {
    const asked: unknown[] = [];
    await using h = await harness(search, {
      elicitation: (_params, ctx) => {
        asked.push({ method: ctx.method, key: ctx.key, round: ctx.round, name: ctx.name });
        return { action: 'accept', content: { index: 'books' } };
      },
    });
    const found = await h.client.request('acme/search', { query: 'dune' }, { result: Search });
    expect(found).toEqual({ hits: ['dune in books'], total: 1 });
    const typed: { hits: string[]; total: number } = found;
    expect(typed.total).toBe(1);
    expect(asked).toEqual([{ method: 'acme/search', key: 'index', round: 1, name: undefined }]);
    const [first, retry] = h.server.requests;
    expect(first).toMatchObject({ method: 'acme/search', params: { query: 'dune' } });
    expect(first?.params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    expect(retry?.params).toMatchObject({
      query: 'dune',
      inputResponses: { index: { action: 'accept', content: { index: 'books' } } },
      requestState: 'search:dune',
    });
    expect(retry?.id).not.toBe(first?.id);
  });

  it('a result its schema rejects is an invalid-result ClientError naming the issues', async () => {
    await using h = await harness(script({ resultType: 'complete', hits: 'none', total: 0 }));
    const error = await h.client.request('acme/search', {}, { result: Search }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ClientError', reason: 'invalid-result', method: 'acme/search' });
    expect((error as Error).message).toMatch(/result\.hits: .*expected array/);
    expect((error as Error).cause).toEqual([expect.objectContaining({ path: ['hits'] })]);
  });

  it('accepts any Standard Schema, also one that validates asynchronously', async () => {
    const later: StandardSchemaV1<unknown, { ok: true }> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: async (value) =>
          (value as { ok?: unknown }).ok === true
            ? { value: { ok: true } }
            : { issues: [{ message: 'not ok', path: ['ok'] }] },
      },
    };
    await using h = await harness(script({ ok: true }, { ok: false }));
    expect(await h.client.request('acme/check', undefined, { result: later })).toEqual({ ok: true });
    await expect(h.client.request('acme/check', undefined, { result: later })).rejects.toMatchObject({
      reason: 'invalid-result',
      message: expect.stringContaining('result.ok: not ok'),
    });
  });

  it('an unknown method rejects with the server’s -32601 McpError', async () => {
    const reply: Reply = () => {
      throw new McpError(-32601, 'Method not found');
    };
    await using h = await harness(reply);
    const error = await h.client.request('acme/nope', {}, { result: z.unknown() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32601 });
  });

  it('input_required stays invalid on a spec method that cannot ask, even through request()', async () => {
    await using h = await harness(script(inputRequired({ requestState: 's' })));
    await expect(h.client.request('tools/list', {}, { result: z.unknown() })).rejects.toMatchObject({
      reason: 'invalid-result',
    });
  });

  it('follows the round cap, the back-off and the timeout like every call', async () => {
    const slept: number[] = [];
    await using h = await harness(() => inputRequired({ requestState: 'again' }), {
      inputRequiredMaxRounds: 3,
      sleep: async (ms) => void slept.push(ms),
    });
    const error = await h.client.request('acme/poll', {}, { result: z.unknown() }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      reason: 'rounds-exceeded',
      maxRounds: 3,
      request: { method: 'acme/poll' },
    });
    expect(slept).toEqual([50, 100, 200]);
    expect(h.server.requests).toHaveLength(4);
  });

  it('a timeout mid-loop (the callback still thinking) fails the call and aborts the callback', async () => {
    const seen = deferred<AbortSignal>();
    await using h = await harness(search, {
      elicitation: (_params, ctx) => {
        seen.resolve(ctx.signal);
        return new Promise(() => {});
      },
    });
    const error = await h.client
      .request('acme/search', { query: 'x' }, { result: Search, timeoutMs: 40 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'timeout', timeoutMs: 40, method: 'acme/search' });
    expect((await seen.promise).aborted).toBe(true);
  });

  it('aborting mid-loop rejects with the reason and cancels the round in flight', async () => {
    const controller = new AbortController();
    await using h = await harness(
      script(inputRequired({ requestState: 's' }), () => NO_REPLY),
      {
        sleep: async () => {},
      },
    );
    const call = h.client.request('acme/slow', {}, { result: z.unknown(), signal: controller.signal });
    await h.server.waitForRequests(2);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    const cancelled = await h.server.waitForNotification('notifications/cancelled');
    expect(cancelled.params).toMatchObject({ requestId: h.server.requests[1]?.id });
  });

  it('reports progress of every round', async () => {
    const progress: number[] = [];
    const reply: Reply = async (request, index, server) => {
      const token = request.params._meta.progressToken;
      await server.send({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token, progress: index },
      });
      return index === 0 ? inputRequired({ requestState: 's' }) : { resultType: 'complete' };
    };
    await using h = await harness(reply, { sleep: async () => {} });
    await h.client.request(
      'acme/p',
      {},
      { result: z.object({}), onprogress: (p) => progress.push(p.progress) },
    );
    expect(progress).toEqual([0, 1]);
  });
});

describe('extension capabilities', () => {
  it('the client declares its own through the capabilities option, in every request', async () => {
    await using h = await harness(script({ resultType: 'complete' }), {
      capabilities: { extensions: { 'acme/tasks': { poll: true } } },
    });
    await h.client.request('acme/ping', {}, { result: z.object({}) });
    const declared = h.server.requests[0]?.params._meta['io.modelcontextprotocol/clientCapabilities'];
    expect(declared).toEqual({ extensions: { 'acme/tasks': { poll: true } } });
    expect(hasExtension(h.client.capabilities, 'acme/tasks')).toBe(true);
  });

  it('serverCapabilities: what server/discover declared, read with hasExtension', async () => {
    const discovered = cacheable({
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {}, extensions: { 'acme/tasks': {} } },
    });
    await using h = await harness(script(discovered, { ...discovered, capabilities: {} }));
    expect(h.client.serverCapabilities).toBeUndefined(); // '2026-07-28': nothing is sent when connecting
    await h.client.discover();
    expect(hasExtension(h.client.serverCapabilities, 'acme/tasks')).toBe(true);
    expect(hasExtension(h.client.serverCapabilities, 'acme/other')).toBe(false);
    await h.client.discover();
    expect(hasExtension(h.client.serverCapabilities, 'acme/tasks')).toBe(false);
  });

  it("protocol 'auto' learns them from its probe", async () => {
    const discover = cacheable({
      supportedVersions: ['2026-07-28'],
      capabilities: { extensions: { 'acme/tasks': {} } },
    });
    await using h = await harness(() => discover, { protocol: 'auto' });
    expect(hasExtension(h.client.serverCapabilities, 'acme/tasks')).toBe(true);
  });
});
