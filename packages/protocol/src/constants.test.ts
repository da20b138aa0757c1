import { describe, expect, it } from 'vitest';
import {
  CACHEABLE_METHODS,
  INPUT_REQUIRED_METHODS,
  isCacheableMethod,
  isInputRequiredMethod,
  LATEST_PROTOCOL_VERSION,
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
});
