import { describe, expect, it } from 'vitest';
import { createMessageRequest, elicitRequest, elicitUrlRequest, listRootsRequest } from './input-requests.js';

const form = elicitRequest({
  message: 'Which region?',
  requestedSchema: { type: 'object', properties: { region: { type: 'string' } }, required: ['region'] },
});

describe('input request builders', () => {
  it('elicitRequest writes mode "form" first', () => {
    expect(form).toEqual({
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'Which region?',
        requestedSchema: { type: 'object', properties: { region: { type: 'string' } }, required: ['region'] },
      },
    });
    expect(Object.keys(form.params)[0]).toBe('mode');
    const explicit = elicitRequest({
      mode: 'form',
      message: 'm',
      requestedSchema: { type: 'object', properties: {} },
    });
    expect(explicit.params).toEqual({
      mode: 'form',
      message: 'm',
      requestedSchema: { type: 'object', properties: {} },
    });
  });

  it.each([
    [
      { message: 1, requestedSchema: { type: 'object', properties: {} } },
      '"message" expected string, got number',
    ],
    [{ message: 'm' }, '"requestedSchema" expected { type: "object", properties: {...} }, got undefined'],
    [
      { message: 'm', requestedSchema: { type: 'string', properties: {} } },
      '"requestedSchema" expected { type: "object", properties: {...} }, got object',
    ],
    [
      { mode: 'url', message: 'm', requestedSchema: { type: 'object', properties: {} } },
      '"mode" expected "form", got string',
    ],
    [null, '"params" expected plain object, got null'],
  ])('elicitRequest refuses %j', (params, message) => {
    expect(() => elicitRequest(params as never)).toThrow(new TypeError(message));
  });

  it('elicitUrlRequest writes mode "url" and needs an absolute URL', () => {
    const built = elicitUrlRequest({ message: 'Sign in', url: 'https://example.com/oauth?x=1' });
    expect(built).toEqual({
      method: 'elicitation/create',
      params: { mode: 'url', message: 'Sign in', url: 'https://example.com/oauth?x=1' },
    });
    expect(Object.keys(built.params)[0]).toBe('mode');
  });

  it.each([
    [{ message: 'm', url: '/relative' }, '"url" expected absolute URL string, got string'],
    [{ message: 'm' }, '"url" expected absolute URL string, got undefined'],
    [{ url: 'https://x.test' }, '"message" expected string, got undefined'],
    [{ mode: 'form', message: 'm', url: 'https://x.test' }, '"mode" expected "url", got string'],
  ])('elicitUrlRequest refuses %j', (params, message) => {
    expect(() => elicitUrlRequest(params as never)).toThrow(new TypeError(message));
  });

  it('createMessageRequest wraps its params (copied)', () => {
    const params = {
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Hi' } }],
      maxTokens: 100,
    };
    const built = createMessageRequest(params);
    expect(built).toEqual({ method: 'sampling/createMessage', params });
    expect(built.params).not.toBe(params);
  });

  it.each([
    [{ maxTokens: 1 }, '"messages" expected array, got undefined'],
    [{ messages: [], maxTokens: '1' }, '"maxTokens" expected integer, got string'],
    [{ messages: [], maxTokens: 1.5 }, '"maxTokens" expected integer, got number'],
    [[], '"params" expected plain object, got array'],
  ])('createMessageRequest refuses %j', (params, message) => {
    expect(() => createMessageRequest(params as never)).toThrow(new TypeError(message));
  });

  it('listRootsRequest is the bare method, a fresh object each time', () => {
    expect(listRootsRequest()).toEqual({ method: 'roots/list' });
    expect(listRootsRequest()).not.toBe(listRootsRequest());
  });
});
