// serverTelemetry on a real McpServer flow: one SERVER span per round, children of the caller's spans when _meta
// carries them, linked to the minting round through sealed state when it does not; attributes and metrics.
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Metric } from './attributes.js';
import { serverTelemetry } from './server.js';
import { parentOf, sdk } from './test-support/sdk.js';

const worlds: ReturnType<typeof sdk>[] = [];
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((world) => world.shutdown()));
});

function deployer(world: ReturnType<typeof sdk>) {
  const mcp = new McpServer({ name: 'deployer', version: '1.0.0' });
  const region = resolver({ args: ['service'] }, ({ service }: { service: string }) =>
    elicit(`Region for ${service}?`, z.object({ region: z.string() })),
  );
  const confirm = resolver({ args: ['service'], uses: { region } }, ({ service, region: where }) =>
    elicit(`Deploy ${service} to ${where.region}?`, z.object({ ok: z.boolean() })),
  );
  mcp.tool(
    'deploy',
    { input: z.object({ service: z.string() }), resolve: { region, confirm } },
    ({ service }, { region: where, confirm: answer }) => ({
      content: [{ type: 'text', text: answer.ok ? `${service} → ${where.region}` : 'no' }],
      isError: !answer.ok,
    }),
  );
  mcp.use(serverTelemetry({ tracerProvider: world.tracerProvider, meterProvider: world.meterProvider }));
  return mcp;
}

const caps = { elicitation: { form: {} } };
let id = 1;
const request = (method: string, params: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: id++,
  method,
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': caps,
      ...extra,
    },
    ...params,
  },
});

/** Drives tools/call deploy to its end; `metaOf(round)` is each round's extra `_meta`. */
async function flow(mcp: McpServer, metaOf: (round: number) => Record<string, unknown>, ok = true) {
  const answers: Record<string, unknown> = {
    'Region for api?': { region: 'eu' },
    'Deploy api to eu?': { ok },
  };
  let params: Record<string, unknown> = { name: 'deploy', arguments: { service: 'api' } };
  for (let round = 0; round < 5; round++) {
    const response = (await mcp.handle(request('tools/call', params, metaOf(round)))) as {
      result: Record<string, unknown>;
    };
    const { result } = response;
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
  throw new Error('no end');
}

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const clientSpan = (round: number) => `0000000000000a0${round}`;

describe('serverTelemetry', () => {
  it('one SERVER span per round, each a child of the client span _meta names, with the MCP attributes', async () => {
    const world = sdk();
    worlds.push(world);
    const mcp = deployer(world);
    await flow(mcp, (round) => ({ traceparent: `00-${TRACE}-${clientSpan(round)}-01` }));
    const spans = world.spans();
    expect(spans.map((span) => span.name)).toEqual([
      'tools/call deploy',
      'tools/call deploy',
      'tools/call deploy',
    ]);
    expect(spans.every((span) => span.kind === SpanKind.SERVER)).toBe(true);
    expect(spans.every((span) => span.spanContext().traceId === TRACE)).toBe(true);
    expect(spans.map(parentOf)).toEqual([clientSpan(0), clientSpan(1), clientSpan(2)]);
    expect(spans.map((span) => span.attributes['mcp.mrtr.round'])).toEqual([0, 1, 2]);
    expect(spans.map((span) => span.attributes['mcp.mrtr.outcome'])).toEqual([
      'input_required',
      'input_required',
      'complete',
    ]);
    expect(spans[0]?.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'deploy',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2026-07-28',
      'mcp.mrtr.input_requests': 1,
      'jsonrpc.request.id': expect.any(String),
    });
    // The round that opens sealed state links to the round that minted it.
    const minted = spans[2]?.links.find((link) => link.attributes?.['mcp.mrtr.link'] === 'minted_state');
    expect(minted?.context.spanId).toBe(spans[1]?.spanContext().spanId);
  });

  it('links the rounds through sealed state when the client propagates nothing', async () => {
    const world = sdk();
    worlds.push(world);
    await flow(deployer(world), () => ({}));
    const [first, second, third] = world.spans();
    expect(parentOf(third as never)).toBeUndefined();
    expect(third?.links.map((link) => link.context.spanId)).toEqual([second?.spanContext().spanId]);
    // The first round seals nothing (resolver questions go out alone), so the second has nothing to link to.
    expect(second?.links).toEqual([]);
    expect(first?.links).toEqual([]);
  });

  it('records errors, tool errors and state refusals; measures durations and flow lengths', async () => {
    const world = sdk();
    worlds.push(world);
    const mcp = deployer(world);
    await flow(mcp, () => ({}), false);
    await mcp.handle(request('tools/call', { name: 'nope' }));
    await mcp.handle(
      request('tools/call', { name: 'deploy', arguments: { service: 'api' }, requestState: 'forged' }),
    );
    const spans = world.spans();
    const toolError = spans[2];
    expect(toolError?.attributes['error.type']).toBe('tool_error');
    expect(toolError?.status.code).toBe(SpanStatusCode.ERROR);
    const unknown = spans[3];
    expect(unknown?.attributes).toMatchObject({
      'error.type': '-32602',
      'rpc.response.status_code': '-32602',
    });
    expect(unknown?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'Unknown tool: nope',
    });
    expect(spans[4]?.attributes['mcp.mrtr.state_refusal']).toBe('malformed');
    const metrics = await world.metrics();
    const durations = metrics.get(Metric.serverDuration);
    expect(durations?.descriptor.unit).toBe('s');
    const points = durations?.dataPoints ?? [];
    expect(points.reduce((n, p) => n + (p.value as { count: number }).count, 0)).toBe(5);
    const rounds = metrics.get(Metric.flowRounds)?.dataPoints[0]?.value as { sum: number; count: number };
    expect([rounds.count, rounds.sum]).toEqual([1, 3]);
    const refusals = metrics.get(Metric.stateRefusals)?.dataPoints;
    expect(refusals?.map((p) => [p.attributes['mcp.mrtr.state_refusal'], p.value])).toEqual([
      ['malformed', 1],
    ]);
  });

  it('costs nothing where it is not installed, and records nothing without an SDK', async () => {
    const mcp = new McpServer({ name: 'plain', version: '1.0.0' });
    mcp.tool('t', {}, () => ({ content: [] }));
    mcp.use(serverTelemetry()); // the global providers: no-ops until an SDK registers
    const response = (await mcp.handle(request('tools/call', { name: 't' }))) as { result: object };
    expect(response.result).toMatchObject({ resultType: 'complete' });
  });
});

describe('serverTelemetry against what a caller sends', () => {
  it('keeps metric series bounded and names cut when callers send unknown, huge names', async () => {
    const world = sdk();
    worlds.push(world);
    const mcp = deployer(world);
    const secret = 'file:///notes/a?token=sk-secret';
    mcp.resource(secret, { name: 'a' }, () => ({ contents: [{ uri: secret, text: 'n' }] }));
    const huge = 'x'.repeat(100_000);
    for (let i = 0; i < 300; i++) {
      await mcp.handle(request('tools/call', { name: `${huge}${i}`, arguments: {} }));
      await mcp.handle(request(`custom/${i}`, {}));
      await mcp.handle(request('tools/list', {}, { 'io.modelcontextprotocol/protocolVersion': `v${i}` }));
    }
    const read = (await mcp.handle(request('resources/read', { uri: secret }))) as { result: object };
    expect(read.result).toMatchObject({ contents: [{ text: 'n' }] });
    const metrics = await world.metrics();
    const points = metrics.get(Metric.serverDuration)?.dataPoints ?? [];
    // Unknown tools, unknown methods and unknown revisions collapse: a handful of series, not 900.
    expect(points.length).toBeLessThan(10);
    const recordedValues = points.flatMap((p) => Object.values(p.attributes).map(String));
    expect(recordedValues.every((value) => value.length <= 256)).toBe(true);
    expect(recordedValues.some((value) => value.includes('sk-secret'))).toBe(false);
    expect(points.map((p) => p.attributes['mcp.method.name'])).toContain('_OTHER');
    for (const span of world.spans()) {
      expect(span.name.length).toBeLessThanOrEqual(256 + 'tools/call '.length);
      for (const value of Object.values(span.attributes))
        expect(String(value).length).toBeLessThanOrEqual(256);
    }
  });

  it('still records a known tool by name when it fails on its arguments', async () => {
    const world = sdk();
    worlds.push(world);
    const mcp = deployer(world);
    await mcp.handle(request('tools/call', { name: 'deploy', arguments: { service: 42 } }));
    await flow(mcp, () => ({}));
    const points = (await world.metrics()).get(Metric.serverDuration)?.dataPoints ?? [];
    expect(points.some((p) => p.attributes['gen_ai.tool.name'] === 'deploy')).toBe(true);
  });

  it('does not fail a call when other middleware spent the carry budget', async () => {
    const world = sdk();
    worlds.push(world);
    const mcp = new McpServer({ name: 'full', version: '1.0.0' });
    mcp.use(async (ctx, next) => {
      ctx.carry('bulk', 'b'.repeat(1_990));
      return next();
    });
    mcp.use(serverTelemetry({ tracerProvider: world.tracerProvider, meterProvider: world.meterProvider }));
    mcp.tool('t', {}, () => ({ content: [{ type: 'text', text: 'ok' }] }));
    const response = (await mcp.handle(request('tools/call', { name: 't' }))) as { result: object };
    expect(response.result).toMatchObject({ resultType: 'complete' });
    expect(world.spans().map((span) => span.name)).toEqual(['tools/call t']);
  });

  it("remoteContext 'link': the caller's context is a link, never the parent or the sampling decision", async () => {
    const { ParentBasedSampler, TraceIdRatioBasedSampler } = await import('@opentelemetry/sdk-trace-base');
    const forced = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const run = async (remoteContext: 'parent' | 'link') => {
      const world = sdk(new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0) }));
      worlds.push(world);
      const mcp = new McpServer({ name: 'edge', version: '1.0.0' });
      mcp.tool('t', {}, () => ({ content: [] }));
      mcp.use(
        serverTelemetry({
          tracerProvider: world.tracerProvider,
          meterProvider: world.meterProvider,
          remoteContext,
        }),
      );
      for (let i = 0; i < 20; i++)
        await mcp.handle(request('tools/call', { name: 't' }, { traceparent: forced }));
      return world.spans();
    };
    const parented = await run('parent');
    expect(parented).toHaveLength(20);
    expect(parented[0]?.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(await run('link')).toHaveLength(0);

    const world = sdk();
    worlds.push(world);
    const mcp = new McpServer({ name: 'edge', version: '1.0.0' });
    mcp.tool('t', {}, () => ({ content: [] }));
    mcp.use(
      serverTelemetry({
        tracerProvider: world.tracerProvider,
        meterProvider: world.meterProvider,
        remoteContext: 'link',
      }),
    );
    await mcp.handle(request('tools/call', { name: 't' }, { traceparent: forced }));
    const [span] = world.spans();
    expect(span?.spanContext().traceId).not.toBe('0af7651916cd43dd8448eb211c80319c');
    expect(parentOf(span as NonNullable<typeof span>)).toBeUndefined();
    expect(span?.links.map((link) => link.context.traceId)).toEqual(['0af7651916cd43dd8448eb211c80319c']);
  });

  it('refuses a remoteContext it does not know', () => {
    expect(() => serverTelemetry({ remoteContext: 'trust' as 'link' })).toThrow(/remoteContext must be/);
  });
});
