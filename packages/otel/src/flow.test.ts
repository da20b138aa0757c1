// One trace per flow, end to end in memory: an McpServer tool with two dependent questions, a Boomerang client,
// clientTelemetry() and serverTelemetry() installed through use(): one client span for the call, a CLIENT span per
// round, each server round a child of its client round; a continuation resumed by another client continues the
// trace; a caller's CallOptions.meta reaches ctx.meta on every round; a rate limit answers -32029 to the 6th.
import { Client } from '@boomerang/client';
import { elicit, McpServer, rateLimit, resolver } from '@boomerang/mcp-server';
import { connectInMemory } from '@boomerang/transport-memory';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Metric } from './attributes.js';
import { clientTelemetry } from './client.js';
import { serverTelemetry } from './server.js';
import { parentOf, sdk } from './test-support/sdk.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function deployer(world: ReturnType<typeof sdk>, metas: unknown[]) {
  const mcp = new McpServer({ name: 'deployer', version: '1.0.0' });
  const region = resolver({ args: ['service'] }, ({ service }: { service: string }, ctx) => {
    metas.push(ctx.meta.tenant);
    return elicit(`Region for ${service}?`, z.object({ region: z.string() }));
  });
  const confirm = resolver({ args: ['service'], uses: { region } }, ({ service, region: where }) =>
    elicit(`Deploy ${service} to ${where.region}?`, z.object({ ok: z.boolean() })),
  );
  mcp.tool(
    'deploy',
    { input: z.object({ service: z.string() }), resolve: { region, confirm } },
    ({ service }, { region: where }) => ({
      content: [{ type: 'text', text: `${service} → ${where.region}` }],
    }),
  );
  mcp.use(serverTelemetry({ tracerProvider: world.tracerProvider, meterProvider: world.meterProvider }));
  return mcp;
}

const answers = async (params: { message: string }) => ({
  action: 'accept' as const,
  content: params.message.startsWith('Region') ? { region: 'eu' } : { ok: true },
});

async function link(client: Client, mcp: McpServer) {
  const pair = await connectInMemory(client, mcp);
  cleanups.push(async () => await pair[Symbol.asyncDispose]());
  return client;
}

const byKind = (spans: ReadableSpan[], kind: SpanKind) => spans.filter((span) => span.kind === kind);

describe('one trace per MRTR flow', () => {
  it('the call span parents every round; each server round is a child of its client round', async () => {
    const world = sdk();
    cleanups.push(() => world.shutdown());
    const metas: unknown[] = [];
    const mcp = deployer(world, metas);
    const client = new Client({ name: 'host', version: '1.0.0' }, { elicitation: answers }).use(
      clientTelemetry({ tracerProvider: world.tracerProvider, meterProvider: world.meterProvider }),
    );
    await link(client, mcp);
    const result = await client.callTool('deploy', { service: 'api' }, { meta: { tenant: 'acme' } });
    expect(result.content).toEqual([{ type: 'text', text: 'api → eu' }]);
    const spans = world.spans().filter((span) => span.name === 'tools/call deploy');
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    const [call, ...others] = byKind(spans, SpanKind.INTERNAL);
    expect(others).toEqual([]);
    const rounds = byKind(spans, SpanKind.CLIENT);
    const served = byKind(spans, SpanKind.SERVER);
    expect(rounds).toHaveLength(3);
    expect(served).toHaveLength(3);
    expect(rounds.every((round) => parentOf(round) === call?.spanContext().spanId)).toBe(true);
    expect(served.map(parentOf)).toEqual(rounds.map((round) => round.spanContext().spanId));
    expect(rounds.map((round) => round.attributes['mcp.mrtr.round'])).toEqual([0, 1, 2]);
    expect(served.map((round) => round.attributes['mcp.mrtr.round'])).toEqual([0, 1, 2]);
    expect(rounds.map((round) => round.attributes['mcp.mrtr.outcome'])).toEqual([
      'input_required',
      'input_required',
      'complete',
    ]);
    expect(call?.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'deploy',
      'mcp.mrtr.outcome': 'complete',
    });
    expect(rounds[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'mcp.mrtr.input_requests': 1,
    });
    // The caller's meta reached the resolver on every round it ran.
    expect(metas).toEqual(['acme', 'acme', 'acme']);
    const metrics = await world.metrics();
    expect(metrics.get(Metric.clientDuration)?.dataPoints.length).toBeGreaterThan(0);
    expect(metrics.get(Metric.serverDuration)?.dataPoints.length).toBeGreaterThan(0);
  });

  it('a continuation resumed by another client (another process) continues the same trace', async () => {
    const world = sdk();
    cleanups.push(() => world.shutdown());
    const mcp = deployer(world, []);
    const telemetry = () =>
      clientTelemetry({ tracerProvider: world.tracerProvider, meterProvider: world.meterProvider });
    const caps = { capabilities: { elicitation: { form: {} } } };
    const first = await link(new Client({ name: 'a', version: '1' }, caps).use(telemetry()), mcp);
    const step = await first.start('tools/call', { name: 'deploy', arguments: { service: 'api' } });
    const stored = JSON.stringify(step.continuation);

    const second = await link(new Client({ name: 'b', version: '1' }, caps).use(telemetry()), mcp);
    let continuation = JSON.parse(stored);
    for (;;) {
      const [key, ask] = Object.entries(
        continuation.inputRequests as Record<string, { params: { message: string } }>,
      )[0] as [string, { params: { message: string } }];
      const next = await second.resume(continuation, { [key]: await answers(ask.params) });
      if (next.continuation === undefined) break;
      continuation = next.continuation;
    }
    // Every span of the flow (each connect's own server/discover aside) is in one trace.
    const spans = world.spans().filter((span) => span.name === 'tools/call deploy');
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    // One step span per start()/resume(), each a child of the step before it (ended, in another process).
    const steps = byKind(spans, SpanKind.INTERNAL);
    expect(steps).toHaveLength(3);
    expect(steps.map(parentOf)).toEqual([
      undefined,
      steps[0]?.spanContext().spanId,
      steps[1]?.spanContext().spanId,
    ]);
    expect(steps.map((span) => span.attributes['mcp.mrtr.outcome'])).toEqual([
      'input_required',
      'input_required',
      'complete',
    ]);
    expect(byKind(spans, SpanKind.SERVER)).toHaveLength(3);
  });

  it('rateLimit: the 6th request of a principal is -32029 with data.retryAfterMs, recorded as such', async () => {
    const world = sdk();
    cleanups.push(() => world.shutdown());
    const mcp = deployer(world, []).use(rateLimit({ requests: 5, perMs: 3_600_000 }));
    const client = new Client({ name: 'host', version: '1.0.0' }, { cache: false }).use(
      clientTelemetry({ tracerProvider: world.tracerProvider }),
    );
    await link(client, mcp);
    for (let i = 0; i < 4; i++) await client.listTools(); // connect's discover was the first
    const error = (await client.listTools().catch((e: unknown) => e)) as { code: number; data: unknown };
    expect(error.code).toBe(-32029);
    expect(error.data).toEqual({ retryAfterMs: expect.any(Number) });
    const last = world
      .spans()
      .filter((span) => span.kind === SpanKind.CLIENT)
      .at(-1);
    expect(last?.attributes['error.type']).toBe('-32029');
  });
});
