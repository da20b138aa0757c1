import { generateKey } from '@boomerang/seal';
import { afterEach, describe, expect, it } from 'vitest';
import { hostProvisioner, type ProvisionerHost } from './host.js';
import {
  answerCall,
  answersFor,
  isRejectedState,
  rejectedStateError,
  rejectionReason,
  startCall,
} from './manual.js';
import type { PendingCall } from './pending.js';

const hosts: ProvisionerHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

/** One "process": a provisioner server and a manual-loop client, sharing `keys` with the other process. */
async function processWith(keys: Uint8Array[], clock?: () => number): Promise<ProvisionerHost> {
  const host = await hostProvisioner({
    keys,
    ...(clock === undefined ? {} : { clock }),
    client: { capabilities: { elicitation: { form: {} } } },
  });
  hosts.push(host);
  return host;
}

/** `start` in one process; the pending call as the file would carry it (a JSON round trip). */
async function started(keys: Uint8Array[], clock?: () => number): Promise<PendingCall> {
  const first = await processWith(keys, clock);
  const pending = await startCall(first.client, 'orders');
  if (!('version' in pending)) throw new Error('expected a pending call');
  return JSON.parse(JSON.stringify(pending)) as PendingCall;
}

describe('the manual loop, in process', () => {
  it('stores the question and the sealed state, and a second host finishes the call', async () => {
    const keys = [generateKey()];
    const pending = await started(keys);
    expect(pending).toMatchObject({
      version: 1,
      method: 'tools/call',
      params: { name: 'provision', arguments: { name: 'orders' } },
      inputRequests: { region: { method: 'elicitation/create' } },
      round: 1,
    });
    expect(typeof pending.requestState).toBe('string');

    const second = await processWith(keys);
    const outcome = await answerCall(second.client, pending, answersFor(pending, 'us-east-1'));
    expect(outcome).toMatchObject({ structuredContent: { name: 'orders', region: 'us-east-1' } });
  });

  it('keeps the call pending when the server asks again', async () => {
    const keys = [generateKey()];
    const pending = await started(keys);
    const second = await processWith(keys);
    const again = await answerCall(second.client, pending, answersFor(pending, 'mars-1'));
    expect(again).toMatchObject({ round: 2, params: { arguments: { name: 'orders' } } });
    expect((again as PendingCall).requestState).not.toBe(pending.requestState);
    const done = await answerCall(
      second.client,
      again as PendingCall,
      answersFor(again as PendingCall, 'eu-west-1'),
    );
    expect(done).toMatchObject({ structuredContent: { region: 'eu-west-1' } });
  });

  it('asks again when the retry comes without the state: only sealed state finishes a call', async () => {
    const keys = [generateKey()];
    const { requestState: _dropped, ...stateless } = await started(keys);
    const second = await processWith(keys);
    const again = await answerCall(second.client, stateless, answersFor(stateless, 'eu-west-1'));
    expect(again).toMatchObject({ version: 1, inputRequests: { region: {} } });
    expect(typeof (again as PendingCall).requestState).toBe('string');
  });

  it('turns a decline into the tool error', async () => {
    const keys = [generateKey()];
    const pending = await started(keys);
    const second = await processWith(keys);
    const outcome = await answerCall(second.client, pending, answersFor(pending, { decline: true }));
    expect(outcome).toMatchObject({ isError: true });
  });

  const rejections: Array<[string, (pending: PendingCall) => PendingCall, string]> = [
    ['a tampered state', (p) => ({ ...p, requestState: flip(p.requestState as string) }), 'forged|malformed'],
    [
      'other arguments',
      (p) => ({ ...p, params: { ...p.params, arguments: { name: 'billing' } } }),
      'context',
    ],
    [
      'the state replayed on another tool',
      (p) => ({ ...p, params: { ...p.params, name: 'deprovision' } }),
      'context',
    ],
  ];
  for (const [what, tamper, reason] of rejections) {
    it(`rejects ${what} (state-rejected; the fixed -32602 on the wire, the reason only in the server log)`, async () => {
      const keys = [generateKey()];
      const pending = tamper(await started(keys));
      const second = await processWith(keys);
      const failure = await answerCall(second.client, pending, answersFor(pending, 'eu-west-1')).catch(
        (e) => e,
      );
      expect(isRejectedState(failure)).toBe(true);
      expect(failure.cause).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
      expect(rejectionReason(second.serverWarnings)).toMatch(new RegExp(`^(${reason})$`));
    });
  }

  it('rejects state sealed under another key', async () => {
    const pending = await started([generateKey()]);
    const second = await processWith([generateKey()]);
    const failure = await answerCall(second.client, pending, answersFor(pending, 'eu-west-1')).catch(
      (e) => e,
    );
    expect(isRejectedState(failure)).toBe(true);
    expect(rejectionReason(second.serverWarnings)).toBe('unknown-key');
    expect(rejectedStateError(second.serverWarnings, 'cli', failure).message).toContain(
      'sealed under a different PROVISIONER_STATE_KEY [server log: unknown-key]',
    );
  });

  it('rejects expired state (one round lives ttlSeconds)', async () => {
    const keys = [generateKey()];
    let now = Date.UTC(2026, 6, 28, 12);
    const pending = await started(keys, () => now);
    now += 601_000;
    const second = await processWith(keys, () => now);
    const failure = await answerCall(second.client, pending, answersFor(pending, 'eu-west-1')).catch(
      (e) => e,
    );
    expect(isRejectedState(failure)).toBe(true);
    expect(rejectionReason(second.serverWarnings)).toBe('expired');
  });

  it('accepts keys in rotation: sealed under the old key, opened by [new, old]', async () => {
    const [oldKey, newKey] = [generateKey(), generateKey()];
    const pending = await started([oldKey]);
    const second = await processWith([newKey, oldKey]);
    const outcome = await answerCall(second.client, pending, answersFor(pending, 'eu-west-1'));
    expect(outcome).toMatchObject({ structuredContent: { region: 'eu-west-1' } });
  });
});

describe('answersFor', () => {
  const pending: PendingCall = {
    version: 1,
    method: 'tools/call',
    params: { name: 'provision', arguments: { name: 'orders' } },
    round: 1,
    createdAt: '2026-07-28T00:00:00.000Z',
    inputRequests: {
      region: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Which region?',
          requestedSchema: { type: 'object', properties: { region: { type: 'string', enum: ['a'] } } },
        },
      },
    },
  };

  it('fills the one field of every form', () => {
    expect(answersFor(pending, 'eu-west-1')).toEqual({
      region: { action: 'accept', content: { region: 'eu-west-1' } },
    });
    expect(answersFor(pending, { decline: true })).toEqual({ region: { action: 'decline' } });
  });

  it('refuses questions it cannot answer from one value', () => {
    const roots: PendingCall = { ...pending, inputRequests: { roots: { method: 'roots/list' } } };
    expect(() => answersFor(roots, 'x')).toThrow(
      'The server asks something this CLI cannot answer (roots: roots/list).',
    );
  });
});

/** The token with one character changed (still base64url, so the seal, not the parser, must catch it). */
function flip(token: string): string {
  const i = Math.floor(token.length / 2);
  return token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
}
