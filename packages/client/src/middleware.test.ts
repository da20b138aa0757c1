// Client#use and CallOptions.meta against a real low-level Server in memory: order, what ctx tells every round,
// _meta merged under the client's reserved keys on every round (a continuation's resumed ones too), the call
// context shared by rounds and settled once, what a call carries into its continuation, waiting out a rate limit.
import { elicitRequest, inputRequired, McpError, type Result } from '@boomerang/protocol';
import { type RequestContext, rateLimit, Server, sealed } from '@boomerang/server';
import { connectInMemory } from '@boomerang/transport-memory';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from './client.js';
import type { CallOutcome, ClientMiddleware, ClientMiddlewareContext } from './middleware.js';

const ask = (name: string) =>
  elicitRequest({
    message: `${name}?`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  });

/** A server whose tool `deploy` asks twice (state sealed), recording each round's ctx.meta. */
function deployServer(seen: Record<string, unknown>[], extra: (server: Server) => void = () => {}) {
  const server = new Server(
    { name: 'deployer', version: '1.0.0' },
    {
      requestState: sealed({ keys: [crypto.getRandomValues(new Uint8Array(32))] }),
      onListTools: () => ({ tools: [{ name: 'deploy', inputSchema: { type: 'object' } }] }),
      onCallTool: (_params, ctx: RequestContext) => {
        seen.push(ctx.meta);
        const step = Number(ctx.requestState ?? '0');
        if (step < 2)
          return inputRequired({
            inputRequests: { [`q${step}`]: ask(`q${step}`) },
            requestState: String(step + 1),
          });
        return { content: [{ type: 'text', text: 'deployed' }] };
      },
    },
  );
  extra(server);
  return server;
}

const links: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(links.splice(0).map((link) => link.close()));
});

async function connected(server: Server, client: Client) {
  const link = await connectInMemory(client, server);
  links.push({ close: async () => await link[Symbol.asyncDispose]() });
  return client;
}

const answering = () =>
  new Client(
    { name: 'host', version: '1.0.0' },
    { elicitation: async () => ({ action: 'accept', content: { ok: true } }) },
  );

describe('Client#use', () => {
  it('runs around every round, first registered outermost; ctx tells method, round params and round number', async () => {
    const log: string[] = [];
    const record =
      (name: string): ClientMiddleware =>
      async (ctx, next) => {
        const answered = Object.keys((ctx.params.inputResponses as object | undefined) ?? {}).join(',');
        log.push(
          `${name} ${ctx.method} round ${ctx.round} answers [${answered}] state ${String(ctx.params.requestState)}`,
        );
        const result = await next();
        log.push(`${name} out ${String(result.resultType)}`);
        return result;
      };
    const client = await connected(deployServer([]), answering().use(record('a')).use(record('b')));
    expect((await client.callTool('deploy')).content).toEqual([{ type: 'text', text: 'deployed' }]);
    expect(log.filter((line) => line.startsWith('a '))).toEqual([
      'a tools/call round 0 answers [] state undefined',
      'a out input_required',
      expect.stringMatching(/^a tools\/call round 1 answers \[q0\] state [\w-]+$/),
      'a out input_required',
      expect.stringMatching(/^a tools\/call round 2 answers \[q1\] state [\w-]+$/),
      'a out complete',
    ]);
    expect(log.slice(0, 2)).toEqual([
      'a tools/call round 0 answers [] state undefined',
      'b tools/call round 0 answers [] state undefined',
    ]);
  });

  it('CallOptions.meta reaches ctx.meta on every round; the client’s own keys win and cannot be spoofed', async () => {
    const seen: Record<string, unknown>[] = [];
    const client = await connected(deployServer(seen), answering());
    await client.callTool(
      'deploy',
      {},
      {
        meta: {
          tenant: 'acme',
          'io.modelcontextprotocol/protocolVersion': '1999-01-01',
          'io.modelcontextprotocol/clientInfo': { name: 'spoofed', version: '0' },
          progressToken: 'stolen',
        },
      },
    );
    expect(seen).toHaveLength(3);
    for (const meta of seen) {
      expect(meta.tenant).toBe('acme');
      expect(meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
      expect(meta['io.modelcontextprotocol/clientInfo']).toEqual({ name: 'host', version: '1.0.0' });
      expect(meta.progressToken).toBeUndefined();
    }
  });

  it('a middleware adds to _meta (a traceparent); the call context is shared by rounds and settles once', async () => {
    const seen: Record<string, unknown>[] = [];
    const outcomes: CallOutcome[] = [];
    const contexts = new Set<unknown>();
    const client = answering().use(async (ctx, next) => {
      contexts.add(ctx.call);
      const rounds = ((ctx.call.state.get('rounds') as number | undefined) ?? 0) + 1;
      ctx.call.state.set('rounds', rounds);
      if (rounds === 1) ctx.call.onSettled((outcome) => outcomes.push(outcome));
      ctx.meta.traceparent = `00-${'a'.repeat(32)}-${String(rounds).padStart(16, '0')}-01`;
      return next();
    });
    await connected(deployServer(seen), client);
    await client.callTool('deploy');
    expect(contexts.size).toBe(1);
    expect(seen.map((meta) => meta.traceparent)).toEqual([
      `00-${'a'.repeat(32)}-0000000000000001-01`,
      `00-${'a'.repeat(32)}-0000000000000002-01`,
      `00-${'a'.repeat(32)}-0000000000000003-01`,
    ]);
    expect(outcomes).toEqual([
      { result: expect.objectContaining({ content: [{ type: 'text', text: 'deployed' }] }) },
    ]);
    await expect(client.getPrompt('none')).rejects.toBeInstanceOf(McpError);
    expect(contexts.size).toBe(2);
    expect(outcomes[1]).toEqual({ error: expect.any(McpError) });
  });

  it('start() keeps meta and what middleware carried in the continuation; resume() elsewhere reads them back', async () => {
    const seen: Record<string, unknown>[] = [];
    const server = deployServer(seen);
    const carriedIn: Readonly<Record<string, string>>[] = [];
    const outcomes: CallOutcome[] = [];
    const tracing = (): ClientMiddleware => async (ctx, next) => {
      carriedIn.push(ctx.call.carried);
      if (ctx.call.carried.flow === undefined) ctx.call.carry('flow', 'flow-1');
      ctx.call.onSettled((outcome) => outcomes.push(outcome));
      return next();
    };
    const first = await connected(
      server,
      new Client({ name: 'host', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } }).use(
        tracing(),
      ),
    );
    const step = await first.start('tools/call', { name: 'deploy' }, { meta: { tenant: 'acme' } });
    const continuation = JSON.parse(JSON.stringify(step.continuation));
    expect(continuation).toMatchObject({ meta: { tenant: 'acme' }, carried: { flow: 'flow-1' }, round: 1 });
    const other = await connected(
      server,
      new Client({ name: 'other', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } }).use(
        tracing(),
      ),
    );
    const next = await other.resume(continuation, { q0: { action: 'accept', content: { ok: true } } });
    const done = await other.resume(next.continuation as never, {
      q1: { action: 'accept', content: { ok: true } },
    });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'deployed' }]);
    expect(carriedIn).toEqual([{}, { flow: 'flow-1' }, { flow: 'flow-1' }]);
    expect(seen.map((meta) => meta.tenant)).toEqual(['acme', 'acme', 'acme']);
    expect(
      outcomes.map((outcome) =>
        'paused' in outcome && outcome.paused ? 'paused' : 'result' in outcome ? 'result' : 'error',
      ),
    ).toEqual(['paused', 'paused', 'result']);
    // resume() given its own meta sends that instead.
    const third = await other.start('tools/call', { name: 'deploy' }, { meta: { tenant: 'acme' } });
    await other.resume(
      third.continuation as never,
      { q0: { action: 'accept', content: { ok: true } } },
      { meta: { tenant: 'globex' } },
    );
    expect(seen.slice(-1)[0]?.tenant).toBe('globex');
  });

  it('a middleware may send again (a retry is a new request), or fail the round', async () => {
    let sends = 0;
    const server = new Server(
      { name: 's', version: '1' },
      {
        onListTools: () => {
          sends++;
          return { tools: [] };
        },
      },
    );
    const retrying = answering().use(async (_ctx, next) => {
      await next();
      return next();
    });
    await connected(server, retrying);
    await retrying.listTools({}, { cache: false });
    expect(sends).toBe(2);
    const failing = answering().use(async () => {
      throw new Error('refused locally');
    });
    await connected(server, failing);
    await expect(failing.listTools()).rejects.toThrow('refused locally');
    expect(() => answering().use('nope' as never)).toThrow(TypeError);
    const bad = answering().use((async () => 'not a result') as unknown as ClientMiddleware);
    await connected(server, bad);
    await expect(bad.listTools()).rejects.toThrow(/something other than a result object/);
  });
});

describe('waiting out a rate limit', () => {
  const limited = (requests: number, perMs: number) => {
    let handled = 0;
    const server = new Server(
      { name: 's', version: '1' },
      {
        onListTools: () => {
          handled++;
          return { tools: [] };
        },
      },
    );
    server.use(rateLimit({ requests, perMs, methods: ['tools/list'] }));
    return { server, handled: () => handled };
  };

  it('retries after data.retryAfterMs, within the call’s time limit, and fails at once when it cannot wait', async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
      await new Promise((resolve) => setTimeout(resolve, ms));
    };
    const { server, handled } = limited(1, 200);
    const client = await connected(server, new Client({ name: 'c', version: '1' }, { sleep, cache: false }));
    await client.listTools();
    const started = Date.now();
    await client.listTools();
    expect(handled()).toBe(2);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(100);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    // A wait that would outlast the call's time limit is not waited: the error comes back at once.
    const slow = limited(1, 60_000);
    const impatient = await connected(
      slow.server,
      new Client({ name: 'c', version: '1' }, { sleep, cache: false }),
    );
    await impatient.listTools();
    const error = (await impatient.listTools({}, { timeoutMs: 1_000 }).catch((e: unknown) => e)) as McpError;
    expect(error.code).toBe(-32029);
    expect(waits).toHaveLength(1);
  });

  it('gives up after three retries', async () => {
    let sent = 0;
    const server = new Server({ name: 's', version: '1' }, { onListTools: () => ({ tools: [] }) });
    server.use(async (ctx, next) => {
      if (ctx.method !== 'tools/list') return next();
      sent++;
      throw new McpError(-32029, 'busy', { retryAfterMs: 1 });
    });
    const client = await connected(
      server,
      new Client({ name: 'c', version: '1' }, { sleep: async () => {}, cache: false }),
    );
    await expect(client.listTools()).rejects.toMatchObject({ code: -32029 });
    expect(sent).toBe(4);
  });

  it('middleware see each refused attempt as its own round', async () => {
    const seen: string[] = [];
    const { server } = limited(1, 50);
    const client = new Client({ name: 'c', version: '1' }, { cache: false }).use(
      async (ctx: ClientMiddlewareContext, next) => {
        try {
          const result: Result = await next();
          seen.push(`ok round ${ctx.round}`);
          return result;
        } catch (error) {
          seen.push(`error ${(error as McpError).code}`);
          throw error;
        }
      },
    );
    await connected(server, client);
    await client.listTools();
    await client.listTools();
    // The user's middleware is outside the retry: it sees the call's one request succeed.
    expect(seen).toEqual(['ok round 0', 'ok round 0']);
  });
});
