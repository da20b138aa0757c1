// Telemetry from the tarballs, as the Operating guide promises it: an McpServer tool with two dependent
// questions, served in memory, called by a Boomerang client, serverTelemetry() and clientTelemetry() installed
// through use(), spans in @opentelemetry/sdk-trace-base's in-memory exporter; a caller's meta on every round; a
// rate limit of 5 turning the 6th request into -32029.
import { Client } from '@boomerang/client';
import { elicit, McpServer, rateLimit, resolver } from '@boomerang/mcp-server';
import { clientTelemetry, serverTelemetry } from '@boomerang/otel';
import { connectInMemory } from '@boomerang/transport-memory';
import { SpanKind } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const metas: unknown[] = [];

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
  ({ service }, { region: where }, ctx) => {
    metas.push(ctx.meta.tenant);
    return { content: [{ type: 'text', text: `${service} → ${where.region}` }] };
  },
);
mcp.use(serverTelemetry({ tracerProvider })).use(async (ctx, next) => {
  if (ctx.method === 'tools/call') metas.push(`round ${ctx.round}: ${String(ctx.meta.tenant)}`);
  return next();
});
const client = new Client(
  { name: 'host', version: '1.0.0' },
  {
    elicitation: async ({ message }) =>
      message.startsWith('Region')
        ? { action: 'accept', content: { region: 'eu' } }
        : { action: 'accept', content: { ok: true } },
  },
).use(clientTelemetry({ tracerProvider }));
const link = await connectInMemory(client, mcp);
const result = await client.callTool('deploy', { service: 'api' }, { meta: { tenant: 'acme' } });
await link[Symbol.asyncDispose]();

const spans = exporter.getFinishedSpans().filter((span) => span.name === 'tools/call deploy');
const kinds = (kind: SpanKind) => spans.filter((span) => span.kind === kind);
const [call] = kinds(SpanKind.INTERNAL);
const rounds = kinds(SpanKind.CLIENT);
const served = kinds(SpanKind.SERVER);

// A rate limit of 5 requests: the 6th is an error carrying data.retryAfterMs.
const limited = new McpServer({ name: 'limited', version: '1.0.0' });
limited.tool('ping', {}, () => ({ content: [] }));
limited.use(rateLimit({ requests: 5, perMs: 3_600_000, methods: ['tools/call'] }));
const caller = new Client({ name: 'caller', version: '1.0.0' });
const limitedLink = await connectInMemory(caller, limited);
for (let i = 0; i < 5; i++) await caller.callTool('ping');
const refused = (await caller.callTool('ping').catch((error: unknown) => error)) as {
  code?: number;
  data?: unknown;
};
await limitedLink[Symbol.asyncDispose]();

console.log(
  JSON.stringify({
    content: result.content,
    traces: new Set(spans.map((span) => span.spanContext().traceId)).size,
    calls: kinds(SpanKind.INTERNAL).length,
    rounds: rounds.length,
    roundsUnderCall: rounds.every((round) => round.parentSpanContext?.spanId === call?.spanContext().spanId),
    served: served.length,
    servedUnderRounds: served.map((span) => span.parentSpanContext?.spanId),
    roundIds: rounds.map((span) => span.spanContext().spanId),
    serverRounds: served.map((span) => span.attributes['mcp.mrtr.round']),
    attributes: served[0]?.attributes,
    metas,
    refused: { code: refused.code, data: refused.data },
  }),
);
