// Examples quoted into README.md and the Operating guide; otel.examples.test.ts runs them and checks the quotes.
import { Client } from '@boomerang/client';
import { elicit, McpServer, rateLimit, resolver } from '@boomerang/mcp-server';
import { connectInMemory } from '@boomerang/transport-memory';
import { z } from 'zod';
import { clientTelemetry, serverTelemetry } from './index.js';

/**
 * A deploy tool with two dependent questions, traced, limited, and called by a traced client. The spans and
 * metrics go to the global providers: register an OpenTelemetry SDK first (`NodeSDK`, or a `BasicTracerProvider`
 * with `trace.setGlobalTracerProvider`).
 */
export async function tracedDeploy() {
  // #region server
  const mcp = new McpServer({ name: 'deployer', version: '1.0.0' });
  const region = resolver({ args: ['service'] }, ({ service }: { service: string }) =>
    elicit(`Region for ${service}?`, z.object({ region: z.enum(['eu', 'us']) })),
  );
  const confirm = resolver({ args: ['service'], uses: { region } }, ({ service, region: where }) =>
    elicit(`Deploy ${service} to ${where.region}?`, z.object({ ok: z.boolean() })),
  );
  mcp.tool(
    'deploy',
    { input: z.object({ service: z.string() }), resolve: { region, confirm } },
    ({ service }, { region: where, confirm: answer }, ctx) => ({
      content: [
        {
          type: 'text',
          text: answer.ok ? `${service} → ${where.region} (${String(ctx.meta.tenant)})` : 'no',
        },
      ],
    }),
  );
  mcp
    .use(serverTelemetry()) // one SERVER span per round, metrics per request
    .use(rateLimit({ requests: 100, perMs: 60_000 })); // per principal: -32029 + retryAfterMs beyond it
  // #endregion server

  // #region client
  const client = new Client(
    { name: 'console', version: '1.0.0' },
    {
      elicitation: async ({ message }) =>
        message.startsWith('Region')
          ? { action: 'accept', content: { region: 'eu' } }
          : { action: 'accept', content: { ok: true } },
    },
  ).use(clientTelemetry()); // one span per call, one CLIENT span per round, trace context in _meta
  await using _link = await connectInMemory(client, mcp);
  const result = await client.callTool('deploy', { service: 'api' }, { meta: { tenant: 'acme' } });
  // #endregion client
  return result;
}
