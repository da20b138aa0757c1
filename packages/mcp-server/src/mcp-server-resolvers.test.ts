// Resolver wiring through the full server (the engine itself is tested in ./resolvers): what reaches the wire,
// what reaches the handler, and how each failure answers.
import { Client } from '@boomerang/client';
import { connectInMemory } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import { elicit, listRoots, resolver, sample } from './resolvers/index.js';
import { errorOf, recordingLogger, request, resultOf, textOf } from './test-support/wire.js';
import type { McpServerOptions } from './types.js';

const name = resolver({}, () => elicit('Name?', z.object({ name: z.string() })));
const haiku = resolver({}, () =>
  sample({ messages: [{ role: 'user', content: { type: 'text', text: 'A haiku' } }], maxTokens: 50 }),
);
const roots = resolver({}, () => listRoots());
const allCaps = { elicitation: {}, sampling: {}, roots: {} };

function server(options: McpServerOptions = {}) {
  const mcp = new McpServer({ name: 's', version: '1' }, { logger: recordingLogger(), ...options });
  const runs: unknown[] = [];
  mcp.tool('mixed', { resolve: { name, haiku, roots } }, (_args, resolved) => {
    runs.push(resolved);
    const content = resolved.haiku.content;
    const poem = Array.isArray(content) ? content[0] : content;
    return {
      content: [
        {
          type: 'text',
          text: `${resolved.name.name} | ${poem?.type === 'text' ? poem.text : '?'} | ${resolved.roots.roots.length} roots`,
        },
      ],
    };
  });
  mcp.tool('roots_only', { resolve: { roots } }, (_a, r) => ({
    content: [{ type: 'text', text: String(r.roots.roots.length) }],
  }));
  mcp.tool('sample_only', { resolve: { haiku } }, () => ({ content: [] }));
  mcp.tool('ask_name', { resolve: { name } }, (_a, r) => ({
    content: [{ type: 'text', text: r.name.name }],
  }));
  return { mcp, runs };
}

describe('resolvers through the server', () => {
  it('elicit, sample and listRoots batch into one round; the client answers all; the handler gets typed values', async () => {
    const { mcp, runs } = server();
    const first = resultOf(await mcp.handle(request('tools/call', { name: 'mixed' }, allCaps)));
    expect(first.resultType).toBe('input_required');
    const methods = Object.values(first.inputRequests as Record<string, { method: string }>).map(
      (r) => r.method,
    );
    expect(methods.sort()).toEqual(['elicitation/create', 'roots/list', 'sampling/createMessage']);
    expect(Object.keys(first.inputRequests as object).join()).not.toMatch(/name|haiku|roots/);
    const client = new Client(
      { name: 'c', version: '1' },
      {
        elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
        sampling: async () => ({
          role: 'assistant',
          content: { type: 'text', text: 'old pond' },
          model: 'm',
        }),
        roots: async () => ({ roots: [{ uri: 'file:///repo' }] }),
      },
    );
    await using _link = await connectInMemory(client, mcp);
    expect(textOf(await client.callTool('mixed'))).toBe('Ada | old pond | 1 roots');
    expect(runs).toHaveLength(1);
  });

  it.each([
    ['roots_only', { roots: {} }],
    ['sample_only', { sampling: {} }],
    ['ask_name', { elicitation: { form: {} } }],
  ])('%s without the client capability is -32021 with data.requiredCapabilities', async (tool, required) => {
    const { mcp } = server();
    expect(errorOf(await mcp.handle(request('tools/call', { name: tool })))).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: required },
    });
  });

  it('an answer of the wrong kind is -32602 naming the resolver (no validation internals)', async () => {
    const { mcp } = server();
    const caps = { elicitation: {} };
    const first = resultOf(await mcp.handle(request('tools/call', { name: 'ask_name' }, caps)));
    const [key] = Object.keys(first.inputRequests as object);
    const wrongKind = { [key as string]: { roots: [] } };
    const badShape = { [key as string]: { action: 'accept', content: { name: 42 } } };
    for (const inputResponses of [wrongKind, badShape]) {
      const retry = request(
        'tools/call',
        { name: 'ask_name', inputResponses, requestState: first.requestState },
        caps,
      );
      const error = errorOf(await mcp.handle(retry));
      expect(error.code).toBe(-32602);
      expect(error.message).toContain("'name'");
      expect(error.message).not.toMatch(/zod|invalid_type/i);
    }
  });

  it('a first round seals nothing; an answer counts only under the key of the question asked', async () => {
    const { mcp } = server();
    const caps = { elicitation: {} };
    const first = resultOf(await mcp.handle(request('tools/call', { name: 'ask_name' }, caps)));
    expect(first).not.toHaveProperty('requestState');
    const [key] = Object.keys(first.inputRequests as object) as [string];
    expect(key).toMatch(/^r0\.[A-Za-z0-9_-]{22}$/);
    const answer = { action: 'accept', content: { name: 'Mallory' } };
    // A bare node key, or a key naming another question, is not an answer to this one: asked again.
    for (const wrong of ['r0', `r0.${'A'.repeat(22)}`, `r1.${key.slice(3)}`]) {
      const again = resultOf(
        await mcp.handle(
          request('tools/call', { name: 'ask_name', inputResponses: { [wrong]: answer } }, caps),
        ),
      );
      expect(again.resultType).toBe('input_required');
      expect(again.inputRequests).toEqual(first.inputRequests);
    }
    const retry = { name: 'ask_name', inputResponses: { [key]: answer } };
    expect(textOf(resultOf(await mcp.handle(request('tools/call', retry, caps))))).toBe('Mallory');
  });

  it("with answerBinding 'round', an answer counts only with the sealed state of the round that asked it", async () => {
    const { mcp } = server({ answerBinding: 'round' });
    const caps = { elicitation: {} };
    const first = resultOf(await mcp.handle(request('tools/call', { name: 'ask_name' }, caps)));
    expect(first.requestState).toEqual(expect.any(String));
    const [key] = Object.keys(first.inputRequests as object) as [string];
    const inputResponses = { [key]: { action: 'accept', content: { name: 'Mallory' } } };
    const stateless = resultOf(
      await mcp.handle(request('tools/call', { name: 'ask_name', inputResponses }, caps)),
    );
    expect(stateless.resultType).toBe('input_required');
    const retry = { name: 'ask_name', inputResponses, requestState: first.requestState };
    expect(textOf(resultOf(await mcp.handle(request('tools/call', retry, caps))))).toBe('Mallory');
    expect(() => new McpServer({ name: 's', version: '1' }, { answerBinding: 'x' as never })).toThrow(
      TypeError,
    );
  });

  it('each round is resealed: the token changes, the handler still sees the recorded answers', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    const first = resolver({}, () => elicit('First?', z.object({ a: z.string() })));
    const second = resolver({ uses: { first } }, ({ first: f }) =>
      elicit(`Second after ${f.a}?`, z.object({ b: z.string() })),
    );
    mcp.tool('two', { resolve: { first, second } }, (_x, r) => ({
      content: [{ type: 'text', text: `${r.first.a}${r.second.b}` }],
    }));
    const caps = { elicitation: {} };
    const round1 = resultOf(await mcp.handle(request('tools/call', { name: 'two' }, caps)));
    const k1 = Object.keys(round1.inputRequests as object)[0] as string;
    const answers1 = { [k1]: { action: 'accept', content: { a: 'x' } } };
    const round2 = resultOf(
      await mcp.handle(
        request(
          'tools/call',
          { name: 'two', inputResponses: answers1, requestState: round1.requestState },
          caps,
        ),
      ),
    );
    expect(round2.resultType).toBe('input_required');
    expect(round2.requestState).not.toBe(round1.requestState);
    const k2 = Object.keys(round2.inputRequests as object)[0] as string;
    const answers2 = { [k2]: { action: 'accept', content: { b: 'y' } } };
    const done = resultOf(
      await mcp.handle(
        request(
          'tools/call',
          { name: 'two', inputResponses: answers2, requestState: round2.requestState },
          caps,
        ),
      ),
    );
    expect(textOf(done)).toBe('xy');
  });

  it('lone surrogates in arguments and in answers survive sealing', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    const echo = resolver({ args: ['s'] }, ({ s }: { s: string }) =>
      elicit(`Echo ${s.length}?`, z.object({ t: z.string() })),
    );
    mcp.tool('echo', { input: z.object({ s: z.string() }), resolve: { echo } }, ({ s }, r) => ({
      content: [{ type: 'text', text: JSON.stringify([s, r.echo.t]) }],
    }));
    const caps = { elicitation: {} };
    const args = { s: 'a\ud800b' };
    const first = resultOf(await mcp.handle(request('tools/call', { name: 'echo', arguments: args }, caps)));
    const [key] = Object.keys(first.inputRequests as object);
    const inputResponses = { [key as string]: { action: 'accept', content: { t: '\udc00' } } };
    const retry = { name: 'echo', arguments: args, inputResponses, requestState: first.requestState };
    expect(JSON.parse(textOf(resultOf(await mcp.handle(request('tools/call', retry, caps)))))).toEqual([
      'a\ud800b',
      '\udc00',
    ]);
  });
});
