// The back-channel of a 2025-11-25 session: the shim that turns an InputRequiredResult into real server→client
// requests, its checks and limits, and what happens without it.
import type { InputRequest, InputRequiredResult } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { type Answer, legacyPeer } from '../test-support/legacy-peer.js';
import { errorOf, resultOf, sleep } from '../test-support/wire.js';
import type { RequestContext, ServerOptions } from '../types.js';

const confirm: InputRequest = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Sure?',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  },
} as InputRequest;
const roots = { method: 'roots/list' } as InputRequest;

/**
 * A tool that asks `question` with an InputRequiredResult and returns the answer as text, on a server that
 * fulfils it through the session (`legacy: { shim: true }`, plus `legacy` settings).
 */
function asking(question: InputRequest, legacy: Record<string, unknown> = {}): ServerOptions {
  return {
    legacy: { shim: true, ...legacy },
    onCallTool: async (_params, ctx: RequestContext) => {
      const answer = ctx.inputResponses?.q;
      if (answer === undefined) return { resultType: 'input_required', inputRequests: { q: question } };
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    },
  };
}

const text = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]?.text;

describe('asking on a legacy session', () => {
  it('sends a real server→client request and resolves to the client result', async () => {
    const answer: Answer = () => ({ action: 'accept', content: { ok: true } });
    const peer = await legacyPeer(asking(confirm), answer);
    await peer.initialize({ elicitation: {} });
    const result = resultOf(await peer.call('tools/call', { name: 't' }));
    expect(JSON.parse(text(result) ?? '')).toEqual({ action: 'accept', content: { ok: true } });
    expect(peer.fromServer).toEqual([
      expect.objectContaining({ method: 'elicitation/create', params: confirm.params }),
    ]);
    expect(typeof peer.fromServer[0]?.id).toBe('string');
    await peer.connection.close();
  });

  it('rejects with -32021 and sends nothing when the client did not declare the capability', async () => {
    const peer = await legacyPeer(asking(roots));
    await peer.initialize({ elicitation: {} });
    const error = errorOf(await peer.call('tools/call', { name: 't' }));
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: { roots: {} } });
    expect(peer.fromServer).toEqual([]);
    await peer.connection.close();
  });

  it('treats elicitation: {} as form only (a URL elicitation needs elicitation.url)', async () => {
    const url = {
      method: 'elicitation/create',
      params: { mode: 'url', message: 'Log in', url: 'https://x.example', elicitationId: 'e' },
    } as InputRequest;
    const peer = await legacyPeer(asking(url));
    await peer.initialize({ elicitation: {} });
    expect(errorOf(await peer.call('tools/call', { name: 't' })).code).toBe(-32021);
    await peer.connection.close();
  });

  it('times out with -32001 and tells the client with notifications/cancelled', async () => {
    const peer = await legacyPeer(asking(roots, { requestTimeoutMs: 20 }), () => undefined);
    await peer.initialize({ roots: {} });
    const error = errorOf(await peer.call('tools/call', { name: 't' }));
    expect(error.code).toBe(-32001);
    expect(error.message).toContain('roots/list within 20 ms');
    const [asked, cancelled] = peer.fromServer;
    expect(cancelled).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: asked?.id, reason: 'timed out' },
    });
    await peer.connection.close();
  });

  it("passes the client's error answer on as an McpError", async () => {
    const peer = await legacyPeer(asking(roots), () => ({
      error: { code: -32603, message: 'no roots here' },
    }));
    await peer.initialize({ roots: {} });
    expect(errorOf(await peer.call('tools/call', { name: 't' }))).toEqual({
      code: -32603,
      message: 'no roots here',
    });
    await peer.connection.close();
  });

  it('cancels the server→client request when the client cancels the call', async () => {
    const peer = await legacyPeer(asking(roots), () => undefined);
    await peer.initialize({ roots: {} });
    void peer.call('tools/call', { name: 't' });
    await sleep(5);
    const callId = peer.requestId();
    await peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: callId } });
    await sleep(5);
    const [asked, cancelled] = peer.fromServer;
    expect(cancelled).toMatchObject({ method: 'notifications/cancelled', params: { requestId: asked?.id } });
    await peer.connection.close();
  });

  it('gives up on the call when the connection closes while the client is being asked', async () => {
    let calls = 0;
    const peer = await legacyPeer(
      {
        legacy: { shim: true },
        onCallTool: () => {
          calls++;
          return { resultType: 'input_required', inputRequests: { q: roots } };
        },
      },
      () => undefined,
    );
    await peer.initialize({ roots: {} });
    let answered = false;
    void peer.call('tools/call', { name: 't' }).then(() => {
      answered = true;
    });
    await sleep(5);
    expect(peer.fromServer.map((m) => m.method)).toEqual(['roots/list']);
    await peer.client.close();
    await sleep(5);
    expect([calls, answered]).toEqual([1, false]);
  });

  it('ignores responses nobody waits for', async () => {
    const peer = await legacyPeer({ onListTools: () => ({ tools: [] }) });
    await peer.initialize();
    await peer.send({ jsonrpc: '2.0', id: 'boomerang-99', result: {} });
    expect(resultOf(await peer.call('tools/list', {}))).toEqual({ tools: [] });
    await peer.connection.close();
  });
});

describe('a hand-built InputRequiredResult on a legacy session', () => {
  const handBuilt = (rounds: { ctx: RequestContext }[], limit = 1): ServerOptions => ({
    onCallTool: (_params, ctx): InputRequiredResult | { content: [] } => {
      rounds.push({ ctx });
      if (rounds.length > limit) return { content: [] };
      return {
        resultType: 'input_required',
        inputRequests: { pick: confirm },
        requestState: `state-${rounds.length}`,
      };
    },
  });

  it('is -32603 without the shim (the reason goes to the log)', async () => {
    const peer = await legacyPeer(handBuilt([]));
    await peer.initialize({ elicitation: {} });
    expect(errorOf(await peer.call('tools/call', { name: 't' }))).toEqual({
      code: -32603,
      message: 'Internal error',
    });
    expect(peer.logger.lines.at(-1)?.message).toContain('legacy: { shim: true }');
    expect(peer.fromServer).toEqual([]);
    await peer.connection.close();
  });

  it('with the shim: pushes the requests and re-enters with the answers and the exact state', async () => {
    const rounds: { ctx: RequestContext }[] = [];
    const answer: Answer = () => ({ action: 'accept', content: { ok: true } });
    const peer = await legacyPeer({ ...handBuilt(rounds, 2), legacy: { shim: true } }, answer);
    await peer.initialize({ elicitation: {} });
    expect(resultOf(await peer.call('tools/call', { name: 't' }))).toEqual({ content: [] });
    expect(rounds.map(({ ctx }) => [ctx.requestState, ctx.inputResponses])).toEqual([
      [undefined, undefined],
      ['state-1', { pick: { action: 'accept', content: { ok: true } } }],
      ['state-2', { pick: { action: 'accept', content: { ok: true } } }],
    ]);
    expect(peer.fromServer.map((m) => m.method)).toEqual(['elicitation/create', 'elicitation/create']);
    await peer.connection.close();
  });

  it('ignores inputResponses and requestState a legacy client sends', async () => {
    const rounds: { ctx: RequestContext }[] = [];
    const peer = await legacyPeer({ ...handBuilt(rounds, 0) });
    await peer.initialize({ elicitation: {} });
    const forged = { name: 't', inputResponses: { pick: { action: 'accept' } }, requestState: 'state-9' };
    expect(resultOf(await peer.call('tools/call', forged))).toEqual({ content: [] });
    expect([rounds[0]?.ctx.inputResponses, rounds[0]?.ctx.requestState]).toEqual([undefined, undefined]);
    await peer.connection.close();
  });

  it('with the shim: stops after 10 rounds with -32603', async () => {
    const rounds: { ctx: RequestContext }[] = [];
    const answer: Answer = () => ({ action: 'decline' });
    const peer = await legacyPeer({ ...handBuilt(rounds, 100), legacy: { shim: true } }, answer);
    await peer.initialize({ elicitation: {} });
    expect(errorOf(await peer.call('tools/call', { name: 't' })).code).toBe(-32603);
    expect(rounds).toHaveLength(11);
    await peer.connection.close();
  });

  it('with the shim: checks capabilities first (-32021, nothing sent)', async () => {
    const peer = await legacyPeer({ ...handBuilt([]), legacy: { shim: true } });
    await peer.initialize({});
    expect(errorOf(await peer.call('tools/call', { name: 't' })).code).toBe(-32021);
    expect(peer.fromServer).toEqual([]);
    await peer.connection.close();
  });
});
