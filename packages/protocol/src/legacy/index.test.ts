// The 2025-11-25 entry without the spec checkout: constants, the lifecycle, and the server→client requests.
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../errors.js';
import {
  CallToolRequestSchema,
  ClientRequestSchema,
  ElicitRequestSchema,
  InitializeRequestSchema,
  InitializeResultSchema,
  LEGACY_PROTOCOL_VERSION,
  RESOURCE_NOT_FOUND,
  ServerNotificationSchema,
  ServerRequestSchema,
  URL_ELICITATION_REQUIRED,
  URLElicitationRequiredErrorSchema,
} from './index.js';

const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: LEGACY_PROTOCOL_VERSION,
    capabilities: { roots: { listChanged: true }, elicitation: { form: {} }, 'x-cap': {} },
    clientInfo: { name: 'legacy-client', version: '1.0.0' },
  },
};

describe('2025-11-25 constants', () => {
  it('matches the spec and the shared code table', () => {
    expect(LEGACY_PROTOCOL_VERSION).toBe('2025-11-25');
    expect(RESOURCE_NOT_FOUND).toBe(-32002);
    expect(URL_ELICITATION_REQUIRED).toBe(-32042);
    expect(ErrorCode.UrlElicitationRequired).toBe(URL_ELICITATION_REQUIRED);
  });
});

describe('2025-11-25 lifecycle', () => {
  it('parses initialize and keeps unknown capabilities', () => {
    expect(InitializeRequestSchema.parse(initialize)).toEqual(initialize);
    expect(ClientRequestSchema.parse(initialize).method).toBe('initialize');
  });

  it('needs no resultType on the initialize result', () => {
    const result = {
      protocolVersion: '2025-11-25',
      capabilities: { tools: { listChanged: true }, tasks: { requests: { tools: { call: {} } } } },
      serverInfo: { name: 's', version: '1' },
    };
    expect(InitializeResultSchema.parse(result)).toEqual(result);
  });

  it('accepts shared methods without the per-request _meta of 2026-07-28', () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', task: { ttl: 1000 } } };
    expect(CallToolRequestSchema.parse(call)).toEqual(call);
    expect(ClientRequestSchema.parse({ jsonrpc: '2.0', id: 2, method: 'tools/list' }).method).toBe(
      'tools/list',
    );
    expect(ClientRequestSchema.safeParse({ jsonrpc: '2.0', id: 3, method: 'server/discover' }).success).toBe(
      false,
    );
  });
});

describe('2025-11-25 server→client requests', () => {
  it('dispatches on method and needs a JSON-RPC id', () => {
    const roots = { jsonrpc: '2.0', id: 'r1', method: 'roots/list' };
    expect(ServerRequestSchema.parse(roots)).toEqual(roots);
    expect(ServerRequestSchema.safeParse({ method: 'roots/list' }).success).toBe(false);
  });

  it('treats an elicitation without mode as a form, and a URL one needs elicitationId', () => {
    const form = { message: 'Name?', requestedSchema: { type: 'object', properties: {} } };
    const request = { jsonrpc: '2.0', id: 1, method: 'elicitation/create', params: form };
    expect(ElicitRequestSchema.safeParse(request).success).toBe(true);
    const url = { mode: 'url', message: 'Sign in', url: 'https://example.com' };
    expect(ElicitRequestSchema.safeParse({ ...request, params: url }).success).toBe(false);
    expect(
      ElicitRequestSchema.safeParse({ ...request, params: { ...url, elicitationId: 'e1' } }).success,
    ).toBe(true);
  });

  it('parses the -32042 error and the elicitation-complete notification', () => {
    const error = {
      jsonrpc: '2.0',
      id: 4,
      error: {
        code: -32042,
        message: 'URL elicitation required',
        data: { elicitations: [{ mode: 'url', message: 'Sign in', url: 'https://x', elicitationId: 'e1' }] },
      },
    };
    expect(URLElicitationRequiredErrorSchema.parse(error)).toEqual(error);
    const done = {
      jsonrpc: '2.0',
      method: 'notifications/elicitation/complete',
      params: { elicitationId: 'e1' },
    };
    expect(ServerNotificationSchema.parse(done)).toEqual(done);
  });
});
