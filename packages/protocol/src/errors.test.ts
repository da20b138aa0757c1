import { describe, expect, it } from 'vitest';
import { ErrorCode, isTransportFailure, McpError, transportFailureData } from './errors.js';

describe('ErrorCode', () => {
  it('maps names to the numbers on the wire', () => {
    expect(ErrorCode).toEqual({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
      HeaderMismatch: -32020,
      MissingRequiredClientCapability: -32021,
      UnsupportedProtocolVersion: -32022,
      RateLimited: -32029,
      ResourceNotFound: -32002,
      UrlElicitationRequired: -32042,
    });
  });

  it('has unique integer codes', () => {
    const codes = Object.values(ErrorCode);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.every(Number.isInteger)).toBe(true);
  });
});

describe('McpError', () => {
  it('is an Error with name, code, message and data', () => {
    const error = new McpError(ErrorCode.InvalidParams, 'Unknown tool: x', { name: 'x' });
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(McpError);
    expect(error.name).toBe('McpError');
    expect(error.code).toBe(-32602);
    expect(error.message).toBe('Unknown tool: x');
    expect(error.data).toEqual({ name: 'x' });
    expect(error.stack).toContain('Unknown tool: x');
  });

  it('toJSON gives the JSON-RPC error member, data only when present', () => {
    expect(new McpError(-32603, 'Internal error').toJSON()).toEqual({
      code: -32603,
      message: 'Internal error',
    });
    expect(Object.keys(new McpError(-32603, 'Internal error').toJSON())).toEqual(['code', 'message']);
    expect(new McpError(-32602, 'Bad', null).toJSON()).toEqual({ code: -32602, message: 'Bad', data: null });
    expect(JSON.parse(JSON.stringify(new McpError(1, 'm', [1])))).toEqual({
      code: 1,
      message: 'm',
      data: [1],
    });
  });

  it('keeps cause locally and never serialises it', () => {
    const cause = new Error('database password is hunter2');
    const error = new McpError(ErrorCode.InternalError, 'Internal error', undefined, { cause });
    expect(error.cause).toBe(cause);
    expect(JSON.stringify(error)).not.toContain('hunter2');
    expect(error.toJSON()).toEqual({ code: -32603, message: 'Internal error' });
    expect(Object.hasOwn(new McpError(1, 'm'), 'cause')).toBe(false);
  });

  it('fromJSON round-trips toJSON', () => {
    for (const body of [
      { code: -32601, message: 'Method not found' },
      {
        code: -32022,
        message: 'Unsupported protocol version',
        data: { supported: ['2026-07-28'], requested: 'x' },
      },
    ]) {
      const error = McpError.fromJSON(body);
      expect(error).toBeInstanceOf(McpError);
      expect(error.toJSON()).toEqual(body);
      expect(McpError.fromJSON(error.toJSON()).toJSON()).toEqual(body);
    }
  });

  it('headerMismatch → -32020', () => {
    const error = McpError.headerMismatch('Mcp-Name does not match params.name', { header: 'Mcp-Name' });
    expect(error.toJSON()).toEqual({
      code: -32020,
      message: 'Mcp-Name does not match params.name',
      data: { header: 'Mcp-Name' },
    });
    expect(McpError.headerMismatch('m').toJSON()).toEqual({ code: -32020, message: 'm' });
  });

  it('missingRequiredClientCapability → -32021 with data.requiredCapabilities', () => {
    const error = McpError.missingRequiredClientCapability({ elicitation: { url: {} } });
    expect(error.toJSON()).toEqual({
      code: -32021,
      message: 'Missing required client capability',
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
    expect(McpError.missingRequiredClientCapability({ roots: {} }, 'Roots needed').message).toBe(
      'Roots needed',
    );
  });

  it('unsupportedProtocolVersion → -32022 with data.supported (a copy) and data.requested', () => {
    const supported = ['2026-07-28'];
    const error = McpError.unsupportedProtocolVersion('1999-01-01', supported);
    expect(error.toJSON()).toEqual({
      code: -32022,
      message: 'Unsupported protocol version',
      data: { supported: ['2026-07-28'], requested: '1999-01-01' },
    });
    expect((error.data as { supported: string[] }).supported).not.toBe(supported);
  });
});

describe('transport failures', () => {
  it('are marked in data, with the HTTP status when there was a response', () => {
    expect(transportFailureData()).toEqual({ transportFailure: true });
    expect(transportFailureData(502)).toEqual({ transportFailure: true, status: 502 });
    expect(isTransportFailure(new McpError(-32603, 'x', transportFailureData(400)))).toBe(true);
    expect(
      isTransportFailure(McpError.fromJSON({ code: -32603, message: 'x', data: { transportFailure: true } })),
    ).toBe(true);
  });

  it('are not errors a peer sent, nor other values', () => {
    expect(isTransportFailure(new McpError(-32603, 'x'))).toBe(false);
    expect(isTransportFailure(new McpError(-32603, 'x', { transportFailure: 'yes' }))).toBe(false);
    expect(isTransportFailure(new Error('x'))).toBe(false);
    expect(isTransportFailure(null)).toBe(false);
  });
});
