// The conformance client: `node dist/client.js <server-url>`, scenario from MCP_CONFORMANCE_SCENARIO.
import { Client } from '@boomerang/client';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { oauthFetch } from './auth.js';
import { scenarioFor, scenarios } from './client-scenarios.js';

/**
 * A client that can answer every input request the referee's mock servers send, speaking `protocol` only (the
 * referee's servers speak one revision each: no era probe, so every scenario sees exactly its own traffic).
 * Form elicitations are answered like a host that pre-populates the form with the schema's defaults (the spec's
 * SHOULD) and whose user accepts it.
 */
function createClient(protocol: '2026-07-28' | '2025-11-25'): Client {
  return new Client(
    { name: 'boomerang-everything-client', version: '0.0.0' },
    {
      elicitation: async (params) => ({
        action: 'accept',
        content: params.mode === 'url' ? undefined : formAnswer(params.requestedSchema),
      }),
      sampling: async () => ({
        role: 'assistant',
        content: { type: 'text', text: 'A sampled answer.' },
        model: 'boomerang-everything',
        stopReason: 'endTurn',
      }),
      roots: async () => ({ roots: [{ uri: 'file:///tmp/everything', name: 'everything' }] }),
      requestTimeoutMs: 20_000,
      protocol,
    },
  );
}

/** The schema's defaults, or `{ confirmed: true }` when no field has one. */
function formAnswer(schema: {
  properties: Record<string, { default?: string | number | boolean | string[] | undefined }>;
}): Record<string, string | number | boolean | string[]> {
  const defaults: Record<string, string | number | boolean | string[]> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    if (field.default !== undefined) defaults[name] = field.default;
  }
  return Object.keys(defaults).length > 0 ? defaults : { confirmed: true };
}

function parseContext(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text === '') return {};
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** Runs one scenario against `url` and resolves to the exit code. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const url = argv.at(-1);
  const name = env.MCP_CONFORMANCE_SCENARIO ?? '';
  const scenario = scenarioFor(name);
  if (url === undefined || !/^https?:\/\//.test(url) || scenario === undefined) {
    console.error('usage: MCP_CONFORMANCE_SCENARIO=<scenario> node dist/client.js <server-url>');
    console.error(`scenarios: ${Object.keys(scenarios).join(', ')}, auth/*`);
    return 2;
  }
  const version = env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2026-07-28';
  if (version !== '2026-07-28' && version !== '2025-11-25') {
    console.error(`this client speaks 2026-07-28 and 2025-11-25, not ${version}`);
    return 2;
  }
  const context = parseContext(env.MCP_CONFORMANCE_CONTEXT);
  const log = (line: string) => console.log(`[${name}] ${line}`);
  // Every scenario goes through the OAuth fetch: it only acts on a 401 or a 403 `insufficient_scope`.
  const client = createClient(version);
  try {
    const fetch = await oauthFetch(context, {
      scenario: name,
      serverUrl: url,
      onEvent: (message) => log(`oauth: ${message}`),
    });
    // Inside the try: connecting may already send a request (and so authorize, or refuse to).
    await client.connect(new StreamableHttpClientTransport(url, { fetch }));
    await scenario({ client, context, log });
    return 0;
  } catch (error) {
    console.error(`[${name}] failed:`, error);
    return 1;
  } finally {
    await client.close();
  }
}

process.once('SIGTERM', () => process.exit(143));
// Exit explicitly: a keep-alive socket must not hold the referee until its timeout.
process.exit(await main(process.argv.slice(2), process.env));
