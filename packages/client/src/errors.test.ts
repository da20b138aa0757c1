import { describe, expect, it } from 'vitest';
import {
  ConnectionClosedError,
  describeRequest,
  InputRequestCallbackError,
  InputRequiredRoundsExceededError,
  InvalidResultError,
  NotConnectedError,
  RequestTimeoutError,
  UnsupportedInputRequestError,
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
    [
      new InputRequiredRoundsExceededError({ method: 'prompts/get', name: 'p' }, 3, irr),
      'InputRequiredRoundsExceededError',
      'client.session.getPrompt(',
    ],
    [
      new RequestTimeoutError(tool, 50),
      'RequestTimeoutError',
      'tools/call "provision" timed out after 50 ms',
    ],
    [new ConnectionClosedError('tools/call', 7), 'ConnectionClosedError', 'request id 7'],
    [new NotConnectedError('tools/list'), 'NotConnectedError', 'call client.connect(transport) first'],
    [
      new InvalidResultError('tools/list', 'bad', {}),
      'InvalidResultError',
      'Invalid result for tools/list: bad',
    ],
    [
      new UnsupportedInputRequestError(tool, 'k', 'roots/list', 'no'),
      'UnsupportedInputRequestError',
      'input request "k"',
    ],
    [
      new InputRequestCallbackError(tool, 'k', 'roots/list', 'The roots callback threw', { cause: 1 }),
      'InputRequestCallbackError',
      'The roots callback threw for roots/list',
    ],
  ])('%s has its name and a clear message', (error, name, message) => {
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    expect(error.message).toContain(message);
  });

  it('keeps causes as ES causes, and only when given', () => {
    const cause = new Error('socket');
    expect(new ConnectionClosedError('x', 1, { cause }).cause).toBe(cause);
    expect('cause' in new ConnectionClosedError('x', 1)).toBe(false);
    expect(new InvalidResultError('x', 'y', {}, { cause }).cause).toBe(cause);
    expect(new InputRequestCallbackError(tool, 'k', 'm', 'p', { cause }).cause).toBe(cause);
  });

  it('InputRequiredRoundsExceededError keeps the last result for a manual continuation', () => {
    const error = new InputRequiredRoundsExceededError(tool, 10, irr);
    expect(error).toMatchObject({ maxRounds: 10, request: tool, result: irr });
  });
});
