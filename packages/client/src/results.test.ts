// How a client reads results: valid ones at once through the protocol's hand-written checks (no zod), invalid ones
// rejected with zod's own first issue once zod is loaded, exactly as when zod judged everything.
import { inputRequired } from '@boomerang/protocol';
import * as schemas from '@boomerang/protocol/schemas';
import { describe, expect, it } from 'vitest';
import { type ClientMethod, parseResult, readResult } from './results.js';
import { askFor, cacheable, textResult } from './test-support/fake-server.js';

const VALID: { [M in ClientMethod]: Record<string, unknown> } = {
  'server/discover': cacheable({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} } }),
  'tools/list': cacheable({ tools: [{ name: 't', inputSchema: { type: 'object' } }] }),
  'tools/call': textResult('ok'),
  'prompts/list': cacheable({ prompts: [{ name: 'p' }] }),
  'prompts/get': {
    resultType: 'complete',
    messages: [{ role: 'user', content: { type: 'text', text: 'x' } }],
  },
  'resources/list': cacheable({ resources: [{ name: 'r', uri: 'file:///r' }] }),
  'resources/templates/list': cacheable({ resourceTemplates: [{ name: 'r', uriTemplate: 'file:///{r}' }] }),
  'resources/read': cacheable({ contents: [{ uri: 'file:///r', text: 'x' }] }),
  'completion/complete': { resultType: 'complete', completion: { values: ['a'] } },
};

/** Each method's result with one member broken, and the schema that judges it. */
const INVALID: { [M in ClientMethod]: [Record<string, unknown>, { safeParse(value: unknown): unknown }] } = {
  'server/discover': [
    { ...VALID['server/discover'], capabilities: { tools: 1 } },
    schemas.DiscoverResultSchema,
  ],
  'tools/list': [cacheable({ tools: [{ name: 7 }] }), schemas.ListToolsResultSchema],
  'tools/call': [{ resultType: 'complete', content: [{ type: 'text' }] }, schemas.CallToolResultSchema],
  'prompts/list': [cacheable({ prompts: [{}] }), schemas.ListPromptsResultSchema],
  'prompts/get': [{ resultType: 'complete', messages: [{ role: 'x' }] }, schemas.GetPromptResultSchema],
  'resources/list': [{ ...VALID['resources/list'], ttlMs: -1 }, schemas.ListResourcesResultSchema],
  'resources/templates/list': [
    cacheable({ resourceTemplates: 1 }),
    schemas.ListResourceTemplatesResultSchema,
  ],
  'resources/read': [{ resultType: 'complete', contents: [] }, schemas.ReadResourceResultSchema],
  'completion/complete': [
    { resultType: 'complete', completion: { values: Array(101).fill('v') } },
    schemas.CompleteResultSchema,
  ],
};

const methods = Object.keys(VALID) as ClientMethod[];

describe('parseResult', () => {
  it.each(methods)('%s: a valid result is read at once, as it came', (method) => {
    const result = VALID[method];
    expect(parseResult(method, result)).toBe(result);
  });

  it.each(methods)(
    '%s: an invalid one rejects with zod’s first issue, its error as cause',
    async (method) => {
      const [result, schema] = INVALID[method];
      const { error } = schema.safeParse(result) as {
        error: { issues: { path: PropertyKey[]; message: string }[] };
      };
      const [issue] = error.issues;
      const where = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : '';
      const outcome = (async () => parseResult(method, result))();
      await expect(outcome).rejects.toMatchObject({
        name: 'ClientError',
        reason: 'invalid-result',
        message: `Invalid result for ${method}: the result does not match its schema (${where}${issue?.message})`,
      });
      const thrown = (await outcome.catch((e: unknown) => e)) as { cause: { issues: unknown } };
      expect(thrown.cause.issues).toEqual(error.issues);
    },
  );

  it('reads an InputRequiredResult at once, and rejects a broken one with zod’s issue', async () => {
    const asking = inputRequired({ inputRequests: { name: askFor('name') }, requestState: 's' });
    expect(parseResult('tools/call', asking)).toBe(asking);
    const broken = { resultType: 'input_required', inputRequests: { x: { method: 'tasks/get' } } };
    await expect((async () => parseResult('tools/call', broken))()).rejects.toThrow(
      /^Invalid result for tools\/call: the InputRequiredResult does not match its schema \(inputRequests\.x\.method: /,
    );
    // A result a server of an earlier revision sent (no `resultType`) is normalised first: a copy.
    const old = { content: [] };
    expect(parseResult('tools/call', old)).toEqual({ content: [], resultType: 'complete' });
  });
});

describe('readResult', () => {
  it('takes an InputRequiredResult through the same check, before any schema of the caller', async () => {
    const never = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: () => {
          throw new Error('not for input_required');
        },
      },
    } as const;
    const asking = inputRequired({ requestState: 's' });
    expect(readResult('acme/run', asking, never)).toBe(asking);
    await expect(
      (async () => readResult('acme/run', { resultType: 'input_required', requestState: 1 }, never))(),
    ).rejects.toMatchObject({ reason: 'invalid-result' });
  });
});
