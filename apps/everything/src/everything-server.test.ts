// The fixtures through the real HTTP handler (no sockets: the client transport's fetch calls it directly),
// driven by the Boomerang client: what the conformance server scenarios exercise, in milliseconds.
import { Client } from '@boomerang/client';
import { ErrorCode, McpError } from '@boomerang/protocol';
import { memoryTaskStore, type Tasks } from '@boomerang/tasks';
import { createHttpHandler, StreamableHttpClientTransport } from '@boomerang/transport-http';
import { afterEach, describe, expect, it } from 'vitest';
import { createEverythingServer, everythingTasks } from './everything-server.js';

const clients: Client[] = [];
const runtimes: Tasks[] = [];

/** The everything server on an in-memory task store (the program's is PGlite on disk, see task-store.ts). */
function everything() {
  const tasks = everythingTasks(memoryTaskStore());
  runtimes.push(tasks);
  return createEverythingServer({ tasks, logger: {} }); // quiet: rejections are expected
}

async function connect(options: ConstructorParameters<typeof Client>[1] = {}): Promise<Client> {
  const handler = createHttpHandler(everything());

  const client = new Client({ name: 'everything-test', version: '1.0.0' }, options);
  await client.connect(
    new StreamableHttpClientTransport('http://127.0.0.1/mcp', {
      fetch: (url, init) => handler(new Request(url, init)),
    }),
  );
  clients.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(runtimes.splice(0).map((tasks) => tasks.close()));
});

const textOf = (result: { content: readonly { type: string; text?: string }[] }) =>
  result.content.map((item) => item.text ?? `[${item.type}]`).join('');

describe('the everything server', () => {
  it('discovers tools, prompts, resources and completions', async () => {
    const client = await connect();
    const discovered = await client.discover();
    expect(discovered.supportedVersions).toContain('2026-07-28');
    expect(Object.keys(discovered.capabilities)).toEqual(
      expect.arrayContaining(['tools', 'prompts', 'resources', 'completions']),
    );
  });

  it('lists every tool the server scenarios call, in a stable order, the first one callable with {}', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names[0]).toBe('test_simple_text');
    expect(names).toEqual(
      expect.arrayContaining([
        'test_image_content',
        'test_audio_content',
        'test_embedded_resource',
        'test_multiple_content_types',
        'test_error_handling',
        'test_tool_with_progress',
        'json_schema_2020_12_tool',
        'test_x_mcp_header',
        'test_missing_capability',
        'test_streaming_elicitation',
        'test_logging_tool',
        'test_trigger_tool_change',
        'test_trigger_prompt_change',
        'test_input_required_result_elicitation',
        'test_input_required_result_capabilities',
      ]),
    );
    for (const tool of tools) expect(tool.description, tool.name).toBeTruthy();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(names);
    expect(textOf(await client.callTool('test_simple_text', {}))).toBe(
      'This is a simple text response for testing.',
    );
  });

  it('publishes the JSON Schema 2020-12 fixture exactly as the suite defines it', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'json_schema_2020_12_tool')?.inputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          $anchor: 'addressDef',
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    });
  });

  it('returns an error result, and reports progress 0 → 50 → 100 when asked', async () => {
    const client = await connect();
    const error = await client.callTool('test_error_handling', {});
    expect(error.isError).toBe(true);
    const progress: number[] = [];
    await client.callTool('test_tool_with_progress', {}, { onprogress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([0, 50, 100]);
  });

  it('mirrors the x-mcp-header argument into Mcp-Param-Region (checked by the endpoint)', async () => {
    const client = await connect();
    await client.listTools();
    expect(textOf(await client.callTool('test_x_mcp_header', { region: 'Hello, 世界' }))).toBe(
      'Region: Hello, 世界',
    );
  });

  it('refuses a Mcp-Param-Region header that disagrees with the body, without a tools option', async () => {
    const handler = createHttpHandler(everything());
    const call = (region: string) =>
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'test_x_mcp_header',
          'mcp-param-region': region,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'test_x_mcp_header',
            arguments: { region: 'eu-west1' },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      });
    const refused = await handler(call('us-east1'));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: ErrorCode.HeaderMismatch } });
    expect((await handler(call('eu-west1'))).status).toBe(200);
  });

  it('runs the MRTR rounds through the client loop', async () => {
    const answers: string[] = [];
    const client = await connect({
      elicitation: async (params) => {
        answers.push(params.message);
        return { action: 'accept', content: { name: 'Ada', color: 'green', ok: true, context: 'tests' } };
      },
      sampling: async () => ({ role: 'assistant', content: { type: 'text', text: 'Hi' }, model: 'm' }),
      roots: async () => ({ roots: [{ uri: 'file:///r', name: 'r' }] }),
    });
    expect(textOf(await client.callTool('test_input_required_result_elicitation', {}))).toBe('Hello, Ada!');
    expect(textOf(await client.callTool('test_input_required_result_multi_round', {}))).toBe(
      'Ada likes green',
    );
    expect(textOf(await client.callTool('test_input_required_result_request_state', {}))).toContain(
      'state-ok',
    );
    expect(textOf(await client.callTool('test_input_required_result_multiple_inputs', {}))).toBe(
      'Hi (Ada; roots: file:///r)',
    );
    expect(answers).toContain('Step 2: What is your favorite color?');
    const prompt = await client.getPrompt('test_input_required_result_prompt');
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Context: tests' });
  });

  it('asks only for what the request declared, and refuses an undeclared capability with -32021', async () => {
    const sampler = await connect({
      sampling: async () => ({ role: 'assistant', content: { type: 'text', text: 'Hi' }, model: 'm' }),
    });
    expect(textOf(await sampler.callTool('test_input_required_result_capabilities', {}))).toBe(
      'Answered: Hi',
    );
    const bare = await connect();
    await expect(bare.callTool('test_missing_capability', {})).rejects.toMatchObject({
      code: ErrorCode.MissingRequiredClientCapability,
      data: { requiredCapabilities: { sampling: {} } },
    });
  });

  it('refuses a tampered requestState with -32602 (the client: state-rejected)', async () => {
    const client = await connect({ elicitation: async () => ({ action: 'accept', content: { ok: true } }) });
    const { continuation } = await client.start('tools/call', {
      name: 'test_input_required_result_tampered_state',
      arguments: {},
    });
    if (continuation === undefined) throw new Error('expected a continuation');
    const tampered = { ...continuation, requestState: `${continuation.requestState}-TAMPERED` };
    const error = await client
      .resume(tampered, { confirm: { action: 'accept', content: { ok: true } } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ClientError', reason: 'state-rejected' });
    expect((error as Error).cause).toBeInstanceOf(McpError);
    expect((error as Error).cause).toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it('serves the resources, the template and a -32602 naming an unknown URI', async () => {
    const client = await connect();
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      'test://static-text',
      'test://static-binary',
      'test://watched-resource',
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['test://template/{id}/data']);
    const read = await client.readResource('test://template/123/data');
    expect(read.contents[0]).toMatchObject({ uri: 'test://template/123/data', mimeType: 'application/json' });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual({
      id: '123',
      templateTest: true,
      data: 'Data for ID: 123',
    });
    const missing = 'test://nonexistent-resource-for-conformance-testing';
    await expect(client.readResource(missing)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      data: { uri: missing },
    });
  });

  it('renders the prompts and completes arg1', async () => {
    const client = await connect();
    const { prompts } = await client.listPrompts();
    for (const prompt of prompts) expect(prompt.description, prompt.name).toBeTruthy();
    const withArgs = await client.getPrompt('test_prompt_with_arguments', { arg1: 'a', arg2: 'b' });
    expect(withArgs.messages[0]?.content).toEqual({
      type: 'text',
      text: "Prompt with arguments: arg1='a', arg2='b'",
    });
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'test' },
    });
    expect(completion.completion.values).toEqual(['test', 'testValue1']);
  });
});
