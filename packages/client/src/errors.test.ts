import { describe, expect, it } from 'vitest';
import {
  type ClientError,
  callbackFailed,
  connectionClosed,
  describeRequest,
  invalidResult,
  isClientError,
  notConnected,
  roundsExceeded,
  timedOut,
  unsupportedInputRequest,
} from './errors.js';

const tool = { method: 'tools/call', name: 'provision' } as const;
const irr = { resultType: 'input_required', requestState: 's' } as const;

describe('errors', () => {
  it('describeRequest names the tool, prompt or resource', () => {
    expect(describeRequest(tool)).toBe('tools/call "provision"');
    expect(describeRequest({ method: 'prompts/get', name: 'greet' })).toBe('prompts/get "greet"');
    expect(describeRequest({ method: 'resources/read', uri: 'file:///a' })).toBe(
      'resources/read "file:///a"',
    );
    expect(describeRequest({ method: 'tools/list' })).toBe('tools/list');
  });

  it.each([
    [roundsExceeded({ method: 'prompts/get', name: 'p' }, 3, irr), 'rounds-exceeded', 'client.resume()'],
    [timedOut(tool, 50), 'timeout', 'tools/call "provision" timed out after 50 ms'],
    [connectionClosed('tools/call', 7), 'closed', 'request id 7'],
    [notConnected('tools/list'), 'not-connected', 'call client.connect(transport) first'],
    [invalidResult('tools/list', 'bad', {}), 'invalid-result', 'Invalid result for tools/list: bad'],
    [
      unsupportedInputRequest(tool, 'k', 'roots/list', 'no'),
      'unsupported-input-request',
      'input request "k"',
    ],
    [
      callbackFailed(tool, 'k', 'roots/list', 'The roots callback threw', 1),
      'callback-failed',
      'The roots callback threw for roots/list',
    ],
  ] as [ClientError, string, string][])(
    '%s: one class, its reason and a clear message',
    (error, reason, message) => {
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe('ClientError');
      expect(error.reason).toBe(reason);
      expect(isClientError(error)).toBe(true);
      expect(isClientError(error, error.reason)).toBe(true);
      expect(isClientError(error, reason === 'closed' ? 'timeout' : 'closed')).toBe(false);
      expect(error.message).toContain(message);
    },
  );

  it('keeps causes as ES causes, and only when given', () => {
    const cause = new Error('socket');
    expect(connectionClosed('x', 1, cause).cause).toBe(cause);
    expect('cause' in connectionClosed('x', 1)).toBe(false);
    expect(invalidResult('x', 'y', {}, cause).cause).toBe(cause);
    expect(callbackFailed(tool, 'k', 'm', 'p', cause).cause).toBe(cause);
  });

  it('carries the members of its reason', () => {
    expect(roundsExceeded(tool, 10, irr)).toMatchObject({ maxRounds: 10, request: tool, result: irr });
    expect(timedOut(tool, 5)).toMatchObject({ method: 'tools/call', timeoutMs: 5 });
    expect(connectionClosed('tools/list', 3)).toMatchObject({ method: 'tools/list', requestId: 3 });
    expect(unsupportedInputRequest(tool, 'k', 'roots/list', 'no')).toMatchObject({
      key: 'k',
      inputMethod: 'roots/list',
      request: tool,
    });
  });

  it('isClientError is false for anything else', () => {
    expect(isClientError(new Error('x'))).toBe(false);
    expect(isClientError({ name: 'ClientError', reason: 'closed' })).toBe(false);
  });
});
