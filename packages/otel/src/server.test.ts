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
