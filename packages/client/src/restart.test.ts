// restartOnInvalidState: a flow whose state a server refuses starts over from its first round, when allowed.
import { inputRequired, McpError } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { Client } from './client.js';
import { restartsAllowed, shouldRestart, ToolHints } from './restart.js';
import { askFor, harness, type Reply, textResult } from './test-support/fake-server.js';

/**
 * A fleet with a botched key rotation: state sealed before the `rotated` request is refused afterwards. Every
 * flow asks one question (round 1), then completes with the state it gets back (round 2).
 */
function botchedRotation(rotated: number): Reply {
  return (request, index) => {
    const { requestState, name } = request.params;
    const epoch = index < rotated ? 'old' : 'new';
    if (requestState === undefined) {
      return inputRequired({ inputRequests: { ok: askFor('ok') }, requestState: `${epoch}:${name}` });
    }
    if (!String(requestState).startsWith(`${epoch}:`)) {
      throw new McpError(-32602, 'Invalid or expired requestState');
    }
    return textResult(`done ${name} (${epoch})`);
  };
}

const accept = { elicitation: () => ({ action: 'accept' as const, content: { ok: true } }) };
const tools = (annotations: Record<string, unknown>) => ({
  resultType: 'complete',
  ttlMs: 0,
  cacheScope: 'public',
  tools: [
    { name: 'safe', inputSchema: { type: 'object' }, annotations },
    { name: 'acts', inputSchema: { type: 'object' } },
  ],
});

describe('restartOnInvalidState', () => {
  it('is off by default: the refusal is the error', async () => {
    await using h = await harness(botchedRotation(1), accept);
    await expect(h.client.callTool('acts')).rejects.toThrow('Invalid or expired requestState');
    expect(h.server.requests).toHaveLength(2);
  });

  it('restarts a prompt (a read) from its first round, asking the callbacks again', async () => {
    let asked = 0;
    await using h = await harness(
      (request, index) =>
        index === 0 || index === 2
          ? inputRequired({ inputRequests: { ok: askFor('ok') }, requestState: `s${index}` })
          : index === 1
            ? (() => {
                throw new McpError(-32602, 'Invalid or expired requestState');
              })()
            : { resultType: 'complete', messages: [], description: String(request.params.requestState) },
      {
        restartOnInvalidState: true,
        elicitation: () => {
          asked++;
          return { action: 'accept', content: { ok: true } };
        },
      },
    );
    const result = await h.client.getPrompt('brief');
    expect(result.description).toBe('s2');
    expect(asked).toBe(2);
    const sent = h.server.requests.map((r) => r.params.requestState);
    expect(sent).toEqual([undefined, 's0', undefined, 's2']);
  });

  it('restarts a tool that tools/list said is idempotent or read-only; never one that may act', async () => {
    for (const annotations of [{ idempotentHint: true }, { readOnlyHint: true }]) {
      let index = 0;
      await using h = await harness(
        (request) =>
          request.method === 'tools/list'
            ? tools(annotations)
            : botchedRotation(1)(request, index++, h.server),
        { ...accept, restartOnInvalidState: true },
      );
      await h.client.listTools();
      expect(await h.client.callTool('safe')).toEqual(textResult('done safe (new)'));
    }
    let index = 0;
    await using h = await harness(
      (request) =>
        request.method === 'tools/list'
          ? tools({ idempotentHint: true })
          : botchedRotation(1)(request, index++, h.server),
      { ...accept, restartOnInvalidState: true },
    );
    await h.client.listTools();
    await expect(h.client.callTool('acts')).rejects.toThrow('Invalid or expired requestState');
    // Marked safe by the call: restarted.
    index = 0;
    expect(await h.client.callTool('acts', {}, { restartOnInvalidState: true })).toEqual(
      textResult('done acts (new)'),
    );
    // Marked never: not restarted, even for a tool that is safe.
    index = 0;
    await expect(h.client.callTool('safe', {}, { restartOnInvalidState: false })).rejects.toThrow(
      'Invalid or expired requestState',
    );
  });

  it('a call marked safe restarts once even when the client option is off', async () => {
    await using h = await harness(botchedRotation(1), accept);
    expect(await h.client.callTool('acts', {}, { restartOnInvalidState: true })).toEqual(
      textResult('done acts (new)'),
    );
    expect(h.server.requests).toHaveLength(4);
  });

  it('is bounded by maxRestarts', async () => {
    // Every round-2 request is refused: a key that never comes back.
    const refuseAll: Reply = (request) => {
      if (request.params.requestState === undefined) {
        return inputRequired({ inputRequests: { ok: askFor('ok') }, requestState: 'x' });
      }
      throw new McpError(-32602, 'Invalid or expired requestState');
    };
    await using h = await harness(refuseAll, { ...accept, restartOnInvalidState: { maxRestarts: 3 } });
    await expect(h.client.readResource('file:///a', { cache: false })).rejects.toThrow(
      'Invalid or expired requestState',
    );
    expect(h.server.requests).toHaveLength(8); // 1 + 3 restarts, two requests each
  });

  it('never restarts for a refusal of a first round (no state was sent) nor for other errors', async () => {
    let calls = 0;
    await using h = await harness(
      () => {
        calls++;
        throw new McpError(-32602, 'Invalid or expired requestState');
      },
      { ...accept, restartOnInvalidState: { maxRestarts: 5 } },
    );
    await expect(h.client.getPrompt('p')).rejects.toThrow('Invalid or expired requestState');
    expect(calls).toBe(1);
    await using other = await harness(
      (request) =>
        request.params.requestState === undefined
          ? inputRequired({ inputRequests: { ok: askFor('ok') }, requestState: 's' })
          : (() => {
              throw new McpError(-32602, 'Invalid params: size');
            })(),
      { ...accept, restartOnInvalidState: true },
    );
    await expect(other.client.getPrompt('p')).rejects.toThrow('Invalid params: size');
    expect(other.server.requests).toHaveLength(2);
  });

  it('never restarts a continuation: resume() still says state-rejected', async () => {
    await using h = await harness(botchedRotation(1), { ...accept, restartOnInvalidState: true });
    const step = await h.client.start('prompts/get', { name: 'p' });
    const continuation = step.continuation as NonNullable<typeof step.continuation>;
    await expect(
      h.client.resume(continuation, { ok: { action: 'accept', content: { ok: true } } }),
    ).rejects.toMatchObject({ reason: 'state-rejected' });
  });

  it('checks the option', () => {
    expect(() => new Client({ name: 'c', version: '1' }, { restartOnInvalidState: 'yes' as never })).toThrow(
      new TypeError('"restartOnInvalidState" expected a boolean or { maxRestarts }, got string'),
    );
    for (const bad of [0, 11, 1.5]) {
      expect(
        () => new Client({ name: 'c', version: '1' }, { restartOnInvalidState: { maxRestarts: bad } }),
      ).toThrow(
        new RangeError(`"restartOnInvalidState.maxRestarts" expected an integer in 1…10, got ${bad}`),
      );
    }
    expect(restartsAllowed(undefined)).toBe(0);
    expect(restartsAllowed(false)).toBe(0);
    expect(restartsAllowed(true)).toBe(1);
    expect(restartsAllowed({})).toBe(1);
    expect(restartsAllowed({ maxRestarts: 4 })).toBe(4);
  });

  it('shouldRestart: the whole rule, case by case', () => {
    const hints = new ToolHints();
    hints.learn([
      { name: 'ro', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      { name: 'idem', inputSchema: { type: 'object' }, annotations: { idempotentHint: true } },
      { name: 'acts', inputSchema: { type: 'object' }, annotations: { destructiveHint: true } },
    ]);
    const base = { method: 'tools/call', name: 'ro', carriedState: true, restarts: 0, marked: undefined };
    expect(shouldRestart(base, 1, hints)).toBe(true);
    expect(shouldRestart({ ...base, name: 'idem' }, 1, hints)).toBe(true);
    expect(shouldRestart({ ...base, name: 'acts' }, 1, hints)).toBe(false);
    expect(shouldRestart({ ...base, name: 'unknown' }, 1, hints)).toBe(false);
    expect(shouldRestart({ ...base, name: 'acts', marked: true }, 0, hints)).toBe(true);
    expect(shouldRestart({ ...base, name: 'acts', marked: true, restarts: 1 }, 0, hints)).toBe(false);
    expect(shouldRestart({ ...base, marked: false }, 5, hints)).toBe(false);
    expect(shouldRestart({ ...base, carriedState: false }, 5, hints)).toBe(false);
    expect(shouldRestart({ ...base, restarts: 1 }, 1, hints)).toBe(false);
    expect(shouldRestart({ ...base, restarts: 1 }, 2, hints)).toBe(true);
    expect(shouldRestart({ ...base, method: 'resources/read', name: undefined }, 1, hints)).toBe(true);
    expect(shouldRestart({ ...base, method: 'prompts/get', name: 'x' }, 1, hints)).toBe(true);
    expect(shouldRestart({ ...base, method: 'acme/run', name: undefined }, 1, hints)).toBe(false);
    expect(shouldRestart({ ...base, method: 'acme/run', marked: true }, 1, hints)).toBe(true);
    expect(shouldRestart(base, 0, hints)).toBe(false);
  });
});
