import type { Client } from '@boomerang/client';
import { ErrorCode, McpError } from '@boomerang/protocol';
import { skillsScenarios } from './skills-scenarios.js';

/** What a scenario gets: a connected client, the referee's context (`MCP_CONFORMANCE_CONTEXT`), a log line sink. */
export interface ScenarioInput {
  readonly client: Client;
  readonly context: Readonly<Record<string, unknown>>;
  readonly log: (line: string) => void;
}

/** One client scenario: resolves when its flow completed, throws otherwise (the program then exits 1). */
export type Scenario = (input: ScenarioInput) => Promise<void>;

/** One `tools/call` the referee asks for in `MCP_CONFORMANCE_CONTEXT.toolCalls`. */
interface ToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** `tools/list`, then `add_numbers` with two numbers. */
async function toolsCall({ client, log }: ScenarioInput): Promise<void> {
  const { tools } = await client.listTools();
  log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);
  const result = await client.callTool('add_numbers', { a: 5, b: 3 });
  log(`add_numbers: ${JSON.stringify(result.content)}`);
}

/**
 * Any request, answered `-32022` the first time: retry it once with a version from `error.data.supported`
 * (this client speaks only 2026-07-28, so it retries when the server lists that one).
 */
async function requestMetadata({ client, log }: ScenarioInput): Promise<void> {
  try {
    await client.discover();
  } catch (error) {
    if (!(error instanceof McpError) || error.code !== ErrorCode.UnsupportedProtocolVersion) throw error;
    const supported = (error.data as { supported?: unknown } | undefined)?.supported;
    log(`server/discover refused (-32022), server supports ${JSON.stringify(supported)}`);
    if (!Array.isArray(supported) || !supported.includes(client.protocolVersion)) throw error;
    await client.discover();
  }
  log('server/discover answered');
}

/** Four MRTR tools in order; the client's loop answers `confirm` and echoes `requestState`. */
async function requestState({ client, log }: ScenarioInput): Promise<void> {
  for (const name of [
    'test_mrtr_echo_state',
    'test_mrtr_no_state',
    'test_mrtr_unrelated',
    'test_mrtr_no_result_type',
  ]) {
    const result = await client.callTool(name, {});
    log(`${name}: ${JSON.stringify(result.content)}`);
  }
}

/** One request of each kind that carries `Mcp-Name`: the first tool, resource and prompt. */
async function standardHeaders({ client, log }: ScenarioInput): Promise<void> {
  const { tools } = await client.listTools();
  const tool = tools[0];
  if (tool !== undefined)
    log(`${tool.name}: ${JSON.stringify((await client.callTool(tool.name, {})).content)}`);
  const { resources } = await client.listResources();
  const resource = resources[0];
  if (resource !== undefined)
    log(`${resource.uri}: ${(await client.readResource(resource.uri)).contents.length} item(s)`);
  const { prompts } = await client.listPrompts();
  const prompt = prompts[0];
  if (prompt !== undefined)
    log(`${prompt.name}: ${(await client.getPrompt(prompt.name)).messages.length} message(s)`);
}

/** `tools/list` (the transport learns each tool's `x-mcp-header`s), then every call the referee lists. */
async function customHeaders({ client, context, log }: ScenarioInput): Promise<void> {
  await client.listTools();
  const calls = Array.isArray(context.toolCalls) ? (context.toolCalls as ToolCall[]) : [];
  for (const call of calls) {
    const result = await client.callTool(call.name, call.arguments);
    log(`${call.name}: ${JSON.stringify(result.content)}`);
  }
}

/** `tools/list` drops the tools with invalid `x-mcp-header`s (the transport warns); call `valid_tool` only. */
async function invalidToolHeaders({ client, log }: ScenarioInput): Promise<void> {
  const { tools } = await client.listTools();
  log(`tools kept: ${tools.map((tool) => tool.name).join(', ')}`);
  if (!tools.some((tool) => tool.name === 'valid_tool')) throw new Error('valid_tool was not listed');
  const result = await client.callTool('valid_tool', { region: 'us-west1' });
  log(`valid_tool: ${JSON.stringify(result.content)}`);
}

/** `tools/list` only: a network `$ref` in an input schema is data, never fetched. */
async function refNoDeref({ client, log }: ScenarioInput): Promise<void> {
  const { tools } = await client.listTools();
  log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);
}

/** Sends `json_schema_2020_12_tool`'s `inputSchema`, exactly as received, to `json_schema_echo`. */
async function schemaPreservation({ client, log }: ScenarioInput): Promise<void> {
  const { tools } = await client.listTools();
  const tool = tools.find((candidate) => candidate.name === 'json_schema_2020_12_tool');
  if (tool === undefined) throw new Error('json_schema_2020_12_tool was not listed');
  const result = await client.callTool('json_schema_echo', { schema: tool.inputSchema });
  log(`json_schema_echo: ${JSON.stringify(result.content)}`);
}

/** The flow the auth scenarios' MCP server expects once authorized: `tools/list`, then `test-tool`. */
async function authorizedToolCall({ client, log }: ScenarioInput): Promise<void> {
  await client.listTools();
  const result = await client.callTool('test-tool', {});
  log(`test-tool: ${JSON.stringify(result.content)}`);
}

/** 2025-11-25: `initialize` (done by `connect`), then `tools/list`. */
async function initialize({ client, log }: ScenarioInput): Promise<void> {
  log(`initialized: ${client.protocolVersion}`);
  const { tools } = await client.listTools();
  log(`tools: ${tools.length}`);
}

/** 2025-11-25 (SEP-1034): the server elicits a form whose fields have defaults; the answer carries them. */
async function elicitationDefaults({ client, log }: ScenarioInput): Promise<void> {
  const result = await client.callTool('test_client_elicitation_defaults', {});
  log(`test_client_elicitation_defaults: ${JSON.stringify(result.content)}`);
}

/** 2025-11-25 (SEP-1699): the tool's event stream closes early; the transport resumes it after `retry`. */
async function sseRetry({ client, log }: ScenarioInput): Promise<void> {
  await client.listTools();
  const result = await client.callTool('test_reconnection', {});
  log(`test_reconnection: ${JSON.stringify(result.content)}`);
}

/** Every scenario this client knows, by the name the referee passes in `MCP_CONFORMANCE_SCENARIO`. */
export const scenarios: Readonly<Record<string, Scenario>> = {
  tools_call: toolsCall,
  'request-metadata': requestMetadata,
  'sep-2322-client-request-state': requestState,
  'http-standard-headers': standardHeaders,
  'http-custom-headers': customHeaders,
  'http-invalid-tool-headers': invalidToolHeaders,
  'json-schema-ref-no-deref': refNoDeref,
  'json-schema-2020-12-preservation': schemaPreservation,
  initialize,
  'elicitation-sep1034-client-defaults': elicitationDefaults,
  'sse-retry': sseRetry,
  ...skillsScenarios,
};

/**
 * The scenario for `name`: one of {@link scenarios}, or for `auth/*` the authorized flow (the client's OAuth
 * fetch signs in on the first 401, see `auth.ts`). `undefined` for an unknown name.
 */
export function scenarioFor(name: string): Scenario | undefined {
  if (Object.hasOwn(scenarios, name)) return scenarios[name];
  return name.startsWith('auth/') ? authorizedToolCall : undefined;
}
