import { readdirSync, readFileSync } from 'node:fs';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { modernEra } from './connection.js';
import { correlate } from './correlator.js';
import { fakeServer, INFO, textResult } from './test-support/fake-server.js';

describe('modernEra', () => {
  it('opens a 2026-07-28 connection without a handshake; every request carries the full _meta', async () => {
    await using pair = createInMemoryPair();
    const server = fakeServer(pair[1], () => textResult('ok'));
    const hello = { info: INFO, capabilities: { roots: {} }, callbacks: {}, reportsEveryOutcome: false };
    const connection = await modernEra()(correlate(pair[0]), hello);
    expect(connection.protocolVersion).toBe('2026-07-28');
    expect(connection.server).toBeUndefined();
    expect(await connection.request('tools/call', { name: 't' })).toEqual(textResult('ok'));
    expect(server.requests.map((r) => r.params)).toEqual([
      {
        name: 't',
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { roots: {} },
          'io.modelcontextprotocol/clientInfo': INFO,
        },
      },
    ]);
    await connection.close();
  });
});

describe('the era seam', () => {
  it('only eras.ts names the 2025-11-25 adapter: the modern path never imports legacy/', () => {
    const dir = new URL('./', import.meta.url);
    const sources = readdirSync(dir).filter(
      (name) => name.endsWith('.ts') && !/\.(test|examples)\.ts$/.test(name),
    );
    const naming = sources.filter((name) =>
      /from '\.\/legacy\//.test(readFileSync(new URL(name, dir), 'utf8')),
    );
    expect(naming).toEqual(['eras.ts']);
  });
});
