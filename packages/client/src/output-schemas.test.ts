// A tool's structuredContent against the outputSchema of the last tools/list, as a host's client should check it.
import { describe, expect, it } from 'vitest';
import { isClientError } from './errors.js';
import { cacheable, harness, type Reply, script } from './test-support/fake-server.js';

const weather = {
  name: 'weather',
  inputSchema: { type: 'object' },
  outputSchema: {
    type: 'object',
    properties: { temperature: { type: 'number' }, unit: { enum: ['C', 'F'] } },
    required: ['temperature'],
  },
};
const plain = { name: 'plain', inputSchema: { type: 'object' } };
const list = cacheable({ tools: [weather, plain] });
const structured = (structuredContent: unknown, extra: object = {}) => ({
  resultType: 'complete',
  content: [],
  structuredContent,
  ...extra,
});

/** tools/list first, then the given tools/call answers. */
function server(...calls: object[]): Reply {
  return script(list, ...calls);
}

describe('callTool: structuredContent against the outputSchema of the last tools/list', () => {
  it('passes a matching result through unchanged', async () => {
    await using t = await harness(server(structured({ temperature: 21.5, unit: 'C' })));
    await t.client.listTools();
    expect((await t.client.callTool('weather')).structuredContent).toEqual({ temperature: 21.5, unit: 'C' });
  });

  it('rejects a mismatch with an invalid-result ClientError naming the tool and the issue', async () => {
    await using t = await harness(server(structured({ temperature: 'warm' })));
    await t.client.listTools();
    const error = await t.client.callTool('weather').catch((e: unknown) => e);
    expect(isClientError(error, 'invalid-result')).toBe(true);
    expect(error).toMatchObject({
      request: { method: 'tools/call', name: 'weather' },
      message:
        'Invalid result for tools/call "weather": structuredContent does not match the outputSchema of tool ' +
        '"weather" (structuredContent.temperature: Instance type "string" is invalid. Expected "number".)',
      result: { structuredContent: { temperature: 'warm' } },
      cause: [{ path: ['temperature'] }],
    });
  });

  it('rejects a result without structuredContent, but never checks an isError result', async () => {
    await using t = await harness(
      server(
        { resultType: 'complete', content: [{ type: 'text', text: 'no data' }] },
        { resultType: 'complete', content: [{ type: 'text', text: 'boom' }], isError: true },
      ),
    );
    await t.client.listTools();
    await expect(t.client.callTool('weather')).rejects.toThrow(
      'Invalid result for tools/call "weather": tool "weather" has an outputSchema but returned no structuredContent',
    );
    expect((await t.client.callTool('weather')).isError).toBe(true);
  });

  it('checks nothing for a tool without an outputSchema, or one not (yet) listed', async () => {
    await using t = await harness(script(structured('anything'), list, structured(42, {})));
    expect((await t.client.callTool('weather')).structuredContent).toBe('anything');
    await t.client.listTools();
    expect((await t.client.callTool('plain')).structuredContent).toBe(42);
  });

  it('follows the last list: a tool that lost its outputSchema is no longer checked', async () => {
    const relisted = cacheable({ tools: [{ ...weather, outputSchema: undefined }] });
    await using t = await harness(script(list, relisted, structured({ temperature: 'warm' })));
    await t.client.listTools();
    await t.client.listTools({}, { cache: false });
    expect((await t.client.callTool('weather')).structuredContent).toEqual({ temperature: 'warm' });
  });

  it('collects schemas from every page, and starts afresh with a first page', async () => {
    const page1 = cacheable({ tools: [plain], nextCursor: 'p2' });
    const page2 = cacheable({ tools: [weather] });
    await using t = await harness(script(page1, page2, structured({}), page1, structured({})));
    for await (const _tool of t.client.tools());
    await expect(t.client.callTool('weather')).rejects.toThrow(/required property "temperature"/);
    await t.client.listTools({}, { cache: false });
    expect((await t.client.callTool('weather')).structuredContent).toEqual({});
  });

  it('says so when the outputSchema itself cannot be used (unsupported dialect, external $ref)', async () => {
    const odd = { ...weather, outputSchema: { $schema: 'https://example.com/dialect', type: 'object' } };
    const remote = { ...weather, name: 'remote', outputSchema: { $ref: 'https://evil.example/schema.json' } };
    await using t = await harness(
      script(cacheable({ tools: [odd, remote] }), structured({ temperature: 1 }), structured({})),
    );
    await t.client.listTools();
    await expect(t.client.callTool('weather')).rejects.toThrow(
      'Invalid result for tools/call "weather": the outputSchema of tool "weather" cannot be used (unsupported JSON ' +
        'Schema dialect "https://example.com/dialect" (supported: draft 2020-12, 2019-09, 07 and 04))',
    );
    await expect(t.client.callTool('remote')).rejects.toThrow(/external references are never fetched/);
  });

  it('validates the result a step-at-a-time flow ends with too', async () => {
    await using t = await harness(server(structured({ temperature: 'warm' })));
    await t.client.listTools();
    await expect(t.client.start('tools/call', { name: 'weather' })).rejects.toThrow(
      /does not match the outputSchema/,
    );
  });

  it('checks nothing with validateToolOutput: false', async () => {
    await using t = await harness(server(structured({ temperature: 'warm' })), { validateToolOutput: false });
    await t.client.listTools();
    expect((await t.client.callTool('weather')).structuredContent).toEqual({ temperature: 'warm' });
  });
});
