// A Boomerang Client (default `protocol: 'auto'`) against the official v1 McpServer (src/fixtures/v1-server.mjs),
// whose tools call the client back with real server→client requests. Written once, run over every transport:
// `boomerangClientSuite('stdio', factory)` in stdio.test.ts; an HTTP variant passes its own factory.
import { McpError } from '@boomerang/protocol';
import { describe, expect, it, vi } from 'vitest';
import {
  defaultCallbacks,
  firstText,
  useBoomerangClients,
  type V1PeerFactory,
} from './boomerang-client-harness.js';

export type { V1Peer, V1PeerFactory } from './boomerang-client-harness.js';

/** How long a test waits for something that follows an answer (a log line, a notification). */
const WAIT = { timeout: 5_000 };

/** Registers the suite: every test starts its own server and stops it (the process must be gone). */
export function boomerangClientSuite(name: string, factory: V1PeerFactory): void {
  describe(`Boomerang Client (protocol: 'auto') → official v1 McpServer (1.32.2) over ${name}`, () => {
    const connect = useBoomerangClients(factory);

    it("connect: server/discover is refused, so 'auto' initializes; protocolVersion is 2025-11-25", async (ctx) => {
      const { client, wire } = await connect(ctx);
      expect(client.protocolVersion).toBe('2025-11-25');
      expect(wire.summary().slice(0, 5)).toEqual([
        'out server/discover',
        'in error',
        'out initialize',
        'in response',
        'out notifications/initialized',
      ]);
      // The fallback keyed on the v1 server's answer, not on the probe timeout: -32601 on stdio; over HTTP the
      // v1 transport refuses a request without a session before any method lookup (400 with -32000).
      const refusal = factory.probeRefusal ?? -32601;
      expect(wire.exchange('server/discover').response).toMatchObject({ error: { code: refusal } });
      const { request, response } = wire.exchange('initialize');
      expect(request.params).toEqual({
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
        clientInfo: { name: 'boomerang-host', version: '1.0.0' },
      });
      expect(response?.result).toMatchObject({
        protocolVersion: '2025-11-25',
        serverInfo: { name: 'v1-peer', version: '1.32.2' },
        instructions: 'An official v1 SDK server for Boomerang.',
      });
      // A 2025-11-25 session: no request after initialize carries the 2026-07-28 _meta.
      for (const { direction, message } of wire.entries.slice(2)) {
        if (direction === 'out') expect(JSON.stringify(message)).not.toContain('io.modelcontextprotocol/');
      }
    });

    it('listTools: the v1 list, read as a complete result that is never cached', async (ctx) => {
      const { client } = await connect(ctx);
      const listed = await client.listTools();
      expect(listed).toMatchObject({ resultType: 'complete', ttlMs: 0 });
      expect(listed.tools.map((tool) => tool.name)).toEqual([
        'reserve',
        'summarize',
        'workspace',
        'ping_client',
        'sign_in',
        'slow',
        'explode',
        'stock',
      ]);
      expect(listed.tools[0]).toMatchObject({
        name: 'reserve',
        description: 'Books a table; asks the user how many guests and whose name',
        inputSchema: {
          type: 'object',
          properties: { restaurant: { type: 'string', description: 'Where to book' } },
          required: ['restaurant'],
        },
      });
      expect(listed.tools.find((tool) => tool.name === 'stock')).toMatchObject({
        outputSchema: { type: 'object', required: ['title', 'count'] },
        annotations: { readOnlyHint: true },
      });
    });

    it('callTool: the v1 tool elicits, the elicitation callback answers, the tool builds the text', async (ctx) => {
      const { client, seen, wire } = await connect(ctx);
      const result = await client.callTool('reserve', { restaurant: 'Noma' });
      expect(result).toEqual({
        resultType: 'complete',
        content: [{ type: 'text', text: 'Reserved Noma for 2 under Grace' }],
      });
      expect(seen).toHaveLength(1);
      expect(seen[0]?.params).toEqual({
        mode: 'form',
        message: 'Book a table at Noma: how many guests, under which name?',
        requestedSchema: {
          type: 'object',
          properties: {
            guests: { type: 'integer', minimum: 1, description: 'How many people' },
            name: { type: 'string', description: 'Whose name the table is under' },
          },
          required: ['guests', 'name'],
        },
      });
      // The callback learns which call asked, as in an MRTR round.
      expect(seen[0]?.ctx).toMatchObject({
        method: 'tools/call',
        name: 'reserve',
        round: 1,
        serverInfo: { name: 'v1-peer', version: '1.32.2' },
      });
      expect(wire.summary().slice(5)).toEqual([
        'out tools/call',
        'in elicitation/create',
        'out response',
        'in response',
      ]);
    });

    it.for(['decline', 'cancel'] as const)('a %s reaches the v1 tool as that action', async (action, ctx) => {
      const { client } = await connect(ctx, () => ({ elicitation: () => ({ action }) }));
      const result = await client.callTool('reserve', { restaurant: 'Noma' });
      expect(firstText(result)).toBe(`Not reserved: the user chose ${action}`);
    });

    it("a URL elicitation reaches the callback with the v1 server's elicitationId", async (ctx) => {
      const { client, seen } = await connect(ctx, (seen) => ({
        elicitation: (params, ctx) => {
          seen.push({ method: 'elicitation/create', params, ctx });
          return { action: 'accept' };
        },
      }));
      const result = await client.callTool('sign_in', {});
      expect(firstText(result)).toBe('signed in (accept)');
      expect(seen[0]?.params).toEqual({
        mode: 'url',
        message: 'Sign in to continue',
        url: 'https://example.com/login',
        elicitationId: 'login-1',
      });
    });

    it("progress of a v1 tool reaches the call's onprogress, in order", async (ctx) => {
      const { client } = await connect(ctx);
      const heard: unknown[] = [];
      const result = await client.callTool('slow', {}, { onprogress: (progress) => heard.push(progress) });
      expect(firstText(result)).toBe('slow done');
      expect(heard).toMatchObject([
        { progress: 1, total: 2 },
        { progress: 2, total: 2 },
      ]);
    });

    it('callTool: the v1 tool samples, the sampling callback answers', async (ctx) => {
      const { client, seen } = await connect(ctx);
      const result = await client.callTool('summarize', { text: 'a very long text' });
      expect(firstText(result)).toBe('Summary by boomerang-model: A short line.');
      expect(seen).toMatchObject([
        {
          method: 'sampling/createMessage',
          params: {
            messages: [
              { role: 'user', content: { type: 'text', text: 'Summarize in one line: a very long text' } },
            ],
            maxTokens: 50,
          },
          ctx: { method: 'tools/call', name: 'summarize' },
        },
      ]);
    });

    it('callTool: the v1 tool lists roots, the roots callback answers', async (ctx) => {
      const { client } = await connect(ctx);
      const result = await client.callTool('workspace', {});
      expect(firstText(result)).toBe('app=file:///work/app; docs=file:///work/docs');
    });

    it("the v1 server's ping is answered", async (ctx) => {
      const { client } = await connect(ctx);
      const result = await client.callTool('ping_client', {});
      expect(firstText(result)).toBe('the client answered ping with {}');
    });

    it('a callback that throws: the v1 server gets -32603 without the details; its tool reports the error', async (ctx) => {
      const { client, wire } = await connect(ctx, () => ({
        elicitation: () => {
          throw new Error('secret detail of the host');
        },
      }));
      const result = await client.callTool('reserve', { restaurant: 'Noma' });
      expect(result.isError).toBe(true);
      expect(firstText(result)).toContain('-32603');
      const answer = wire.exchange('elicitation/create').response;
      expect(answer).toMatchObject({ error: { code: -32603 } });
      expect(JSON.stringify(answer)).not.toContain('secret detail');
      expect(firstText(await client.callTool('explode', {}))).toBe('the kitchen is on fire'); // still connected
    });

    it('a callback that answers an invalid shape: -32603 to the v1 server', async (ctx) => {
      const { client, wire } = await connect(ctx, () => ({
        sampling: () => ({ role: 'assistant', model: 'm' }) as never,
      }));
      const result = await client.callTool('summarize', { text: 'x' });
      expect(result.isError).toBe(true);
      expect(wire.exchange('sampling/createMessage').response).toMatchObject({ error: { code: -32603 } });
    });

    it('a request no callback covers: -32601 to the v1 server (roots/list without a roots callback)', async (ctx) => {
      const { client, wire } = await connect(ctx, (seen) => ({
        elicitation: defaultCallbacks(seen).elicitation,
      }));
      const result = await client.callTool('workspace', {});
      expect(result.isError).toBe(true);
      expect(firstText(result)).toContain('-32601');
      expect(wire.exchange('roots/list').response).toMatchObject({ error: { code: -32601 } });
    });

    it('without an elicitation callback nothing is declared, so the v1 server refuses to ask', async (ctx) => {
      const { client, wire } = await connect(ctx, () => ({}));
      expect(wire.exchange('initialize').request.params).toMatchObject({ capabilities: {} });
      const result = await client.callTool('reserve', { restaurant: 'Noma' });
      expect(result.isError).toBe(true);
      expect(firstText(result)).toContain('Client does not support form elicitation');
    });

    it('a v1 tool that throws: an isError result; an unknown tool too (the v1 way)', async (ctx) => {
      const { client } = await connect(ctx);
      const thrown = await client.callTool('explode', {});
      expect(thrown).toEqual({
        resultType: 'complete',
        content: [{ type: 'text', text: 'the kitchen is on fire' }],
        isError: true,
      });
      const unknown = await client.callTool('nope', {});
      expect(unknown.isError).toBe(true);
      expect(firstText(unknown)).toContain('Tool nope not found');
    });

    it('callTool: structured output of a v1 tool', async (ctx) => {
      const { client } = await connect(ctx);
      const result = await client.callTool('stock', { title: 'Dune' });
      expect(result.structuredContent).toEqual({ title: 'Dune', count: 4 });
    });

    it('listPrompts and getPrompt', async (ctx) => {
      const { client } = await connect(ctx);
      expect(await client.listPrompts()).toMatchObject({
        resultType: 'complete',
        prompts: [
          { name: 'greet', description: 'A greeting', arguments: [{ name: 'name', required: true }] },
        ],
      });
      expect(await client.getPrompt('greet', { name: 'Bo' })).toEqual({
        resultType: 'complete',
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hello to Bo' } }],
      });
    });

    it('listResources, listResourceTemplates, readResource; an unknown URI is the v1 error', async (ctx) => {
      const { client } = await connect(ctx);
      expect((await client.listResources()).resources).toEqual([
        { name: 'about', uri: 'peer://about', description: 'What this server is', mimeType: 'text/plain' },
      ]);
      expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
        { name: 'note', uriTemplate: 'peer://notes/{id}', mimeType: 'text/plain' },
      ]);
      expect((await client.readResource('peer://about')).contents).toEqual([
        { uri: 'peer://about', mimeType: 'text/plain', text: 'v1-peer' },
      ]);
      expect((await client.readResource('peer://notes/3')).contents).toEqual([
        { uri: 'peer://notes/3', mimeType: 'text/plain', text: 'note 3' },
      ]);
      const error: unknown = await client.readResource('peer://nope').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('peer://nope') });
    });

    it('two calls asking at once: each answer reaches the v1 tool that asked', async (ctx) => {
      const { client } = await connect(ctx, () => ({
        elicitation: async (params) => {
          const first = params.message.includes('Noma');
          await new Promise((resolve) => setTimeout(resolve, first ? 150 : 10)); // the first asked answers last
          return { action: 'accept', content: { guests: first ? 4 : 9, name: first ? 'Ada' : 'Grace' } };
        },
      }));
      const results = await Promise.all([
        client.callTool('reserve', { restaurant: 'Noma' }),
        client.callTool('reserve', { restaurant: 'Geranium' }),
      ]);
      expect(results.map(firstText)).toEqual([
        'Reserved Noma for 4 under Ada',
        'Reserved Geranium for 9 under Grace',
      ]);
    });

    it("cancelling a call: the v1 server cancels its elicitation, the callback's signal aborts", async (ctx) => {
      let asked!: () => void;
      const waiting = new Promise<void>((resolve) => {
        asked = resolve;
      });
      let callbackSignal: AbortSignal | undefined;
      const { client, wire } = await connect(ctx, () => ({
        elicitation: (_params, { signal }) => {
          callbackSignal = signal;
          asked();
          return new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason)),
          );
        },
      }));
      const controller = new AbortController();
      const call = client.callTool('reserve', { restaurant: 'Noma' }, { signal: controller.signal });
      await waiting;
      controller.abort(new Error('the user gave up'));
      await expect(call).rejects.toThrow('the user gave up');
      await vi.waitFor(() => expect(callbackSignal?.aborted).toBe(true), WAIT);
      const question = wire.exchange('elicitation/create').request;
      const cancelled = wire.entries.find(
        (e) => e.direction === 'in' && e.message.method === 'notifications/cancelled',
      );
      expect(cancelled?.message.params).toMatchObject({ requestId: question.id });
      expect(firstText(await client.callTool('explode', {}))).toBe('the kitchen is on fire'); // still connected
    });
  });
}
