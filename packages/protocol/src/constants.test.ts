import { describe, expect, it } from 'vitest';
import {
  CACHEABLE_METHODS,
  INPUT_REQUIRED_METHODS,
  isCacheableMethod,
  isInputRequiredMethod,
  isLoggingLevel,
  LATEST_PROTOCOL_VERSION,
  LOGGING_LEVELS,
  MetaKey,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './constants.js';

describe('protocol versions', () => {
  it('speaks 2026-07-28 natively and supports it', () => {
    expect(LATEST_PROTOCOL_VERSION).toBe('2026-07-28');
    expect(SUPPORTED_PROTOCOL_VERSIONS).toContain(LATEST_PROTOCOL_VERSION);
    expect(Object.isFrozen(SUPPORTED_PROTOCOL_VERSIONS)).toBe(true);
  });
});

describe('MetaKey', () => {
  it('names the reserved _meta keys exactly as on the wire', () => {
    expect(MetaKey).toEqual({
      protocolVersion: 'io.modelcontextprotocol/protocolVersion',
      clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
      clientInfo: 'io.modelcontextprotocol/clientInfo',
      logLevel: 'io.modelcontextprotocol/logLevel',
      serverInfo: 'io.modelcontextprotocol/serverInfo',
      subscriptionId: 'io.modelcontextprotocol/subscriptionId',
      progressToken: 'progressToken',
    });
  });
});

describe('method tables', () => {
  it('INPUT_REQUIRED_METHODS is exactly tools/call, prompts/get, resources/read (frozen)', () => {
    expect([...INPUT_REQUIRED_METHODS].sort()).toEqual(['prompts/get', 'resources/read', 'tools/call']);
    expect(Object.isFrozen(INPUT_REQUIRED_METHODS)).toBe(true);
  });

  it('isInputRequiredMethod', () => {
    for (const method of INPUT_REQUIRED_METHODS) expect(isInputRequiredMethod(method)).toBe(true);
    for (const method of [
      'server/discover',
      'tools/list',
      'completion/complete',
      'tasks/result',
      '',
      'TOOLS/CALL',
    ]) {
      expect(isInputRequiredMethod(method)).toBe(false);
    }
  });

  it('CACHEABLE_METHODS is discover, the list methods and resources/read (frozen)', () => {
    expect([...CACHEABLE_METHODS].sort()).toEqual([
      'prompts/list',
      'resources/list',
      'resources/read',
      'resources/templates/list',
      'server/discover',
      'tools/list',
    ]);
    expect(Object.isFrozen(CACHEABLE_METHODS)).toBe(true);
  });

  it('isCacheableMethod', () => {
    for (const method of CACHEABLE_METHODS) expect(isCacheableMethod(method)).toBe(true);
    for (const method of ['tools/call', 'prompts/get', 'subscriptions/listen', 'completion/complete']) {
      expect(isCacheableMethod(method)).toBe(false);
    }
  });

  it('LOGGING_LEVELS lists the eight RFC 5424 severities lowest first (frozen); isLoggingLevel knows exactly those', () => {
    expect(LOGGING_LEVELS).toEqual([
      'debug',
      'info',
      'notice',
      'warning',
      'error',
      'critical',
      'alert',
      'emergency',
    ]);
    expect(Object.isFrozen(LOGGING_LEVELS)).toBe(true);
    for (const level of LOGGING_LEVELS) expect(isLoggingLevel(level)).toBe(true);
    for (const other of ['warn', 'DEBUG', '', undefined, 3, null]) expect(isLoggingLevel(other)).toBe(false);
  });
});
