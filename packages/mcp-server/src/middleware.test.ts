// McpServer#use: the server's middleware around a resolver flow (rounds counted through the default sealed state,
// strings carried round to round), ctx.meta in handlers and resolvers, rateLimit re-exported.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { elicit, McpServer, rateLimit, resolver } from './index.js';
import { errorOf, request, resultOf, textOf } from './test-support/wire.js';

const caps = { elicitation: { form: {} } };

function deployServer(seenMeta: unknown[]) {
  const mcp = new McpServer({ name: 'deployer', version: '1.0.0' });
  const Confirm = z.object({ ok: z.boolean() });
  const region = resolver({ args: ['service'] }, ({ service }: { service: string }, ctx) => {
    seenMeta.push(['resolver', ctx.meta['acme/trace']]);
    return elicit(`Region for ${service}?`, z.object({ region: z.string() }));
  });
  const confirm = resolver({ args: ['service'], uses: { region } }, ({ service, region: where }) =>
    elicit(`Deploy ${service} to ${where.region}?`, Confirm),
  );
  mcp.tool(
    'deploy',
    { input: z.object({ service: z.string() }), resolve: { region, confirm } },
    ({ service }, { region: where, confirm: answer }, ctx) => {
      seenMeta.push(['handler', ctx.meta['acme/trace']]);
      return { content: [{ type: 'text', text: answer.ok ? `${service} → ${where.region}` : 'cancelled' }] };
    },
  );
  return mcp;
}

/** Drives a tools/call to completion, answering each question; every request carries `extraMeta`. */
async function call(mcp: McpServer, extraMeta: Record<string, unknown>) {
  const answers: Record<string, unknown> = {
    'Region for api?': { region: 'eu' },
    'Deploy api to eu?': { ok: true },
  };
  let params: Record<string, unknown> = { name: 'deploy', arguments: { service: 'api' } };
  for (let round = 0; round < 5; round++) {
    const message = request('tools/call', params, caps);
    Object.assign((message.params as { _meta: object })._meta, extraMeta);
    const result = resultOf(await mcp.handle(message));
    if (result.resultType !== 'input_required') return result;
    const inputResponses: Record<string, unknown> = {};
    for (const [key, ask] of Object.entries(
      result.inputRequests as Record<string, { params: { message: string } }>,
    )) {
      inputResponses[key] = { action: 'accept', content: answers[ask.params.message] };
    }
    params = {
      name: 'deploy',
      arguments: { service: 'api' },
      inputResponses,
      requestState: result.requestState,
    };
  }
  throw new Error('no result after 5 rounds');
}

describe('McpServer#use', () => {
  it('wraps every round of a resolver flow: rounds counted, strings carried, ctx.meta in resolvers and handler', async () => {
    const seenMeta: unknown[] = [];
    const rounds: [number, string | undefined, string][] = [];
    const mcp = deployServer(seenMeta).use(async (ctx, next) => {
      const carried = ctx.carried.span;
      ctx.carry('span', `span-of-round-${ctx.round}`);
      const result = await next();
      rounds.push([ctx.round, carried, String(result.resultType)]);
      return result;
    });
    const result = await call(mcp, { 'acme/trace': 't-1' });
    expect(textOf(result)).toBe('api → eu');
    // Round 0 asks the region and seals nothing; round 1 asks the confirmation with state; round 2 completes.
    expect(rounds).toEqual([
      [0, undefined, 'input_required'],
      [1, undefined, 'input_required'],
      [2, 'span-of-round-1', 'complete'],
    ]);
    expect(seenMeta).toContainEqual(['resolver', 't-1']);
    expect(seenMeta).toContainEqual(['handler', 't-1']);
  });

  it('rateLimit (re-exported) turns the request over the limit into -32029 with data.retryAfterMs', async () => {
    const mcp = deployServer([]).use(rateLimit({ requests: 5, perMs: 60_000 }));
    for (let i = 0; i < 5; i++)
      expect(resultOf(await mcp.handle(request('tools/list'))).tools).toHaveLength(1);
    const refused = errorOf(await mcp.handle(request('tools/list')));
    expect(refused.code).toBe(-32029);
    expect(refused.data).toEqual({ retryAfterMs: expect.any(Number) });
  });
});
