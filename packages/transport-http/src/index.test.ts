import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import * as node from './node.js';

describe('@boomerang/transport-http', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'StreamableHttpClientTransport',
      'createHttpHandler',
      'decodeHeaderValue',
      'encodeHeaderValue',
      'paramHeadersOf',
    ]);
  });

  it('exports exactly createLimitedServer, listen and toNodeHandler from @boomerang/transport-http/node', () => {
    expect(Object.keys(node).sort()).toEqual(['createLimitedServer', 'listen', 'toNodeHandler']);
  });

  it('keeps the main entry web-standard: no node: imports outside node.ts and its node-*.ts modules', async () => {
    const dir = new URL('./', import.meta.url);
    const runtime = (await readdir(dir, { recursive: true })).filter(
      (file) =>
        file.endsWith('.ts') &&
        !/^node(-.*)?\.ts$/.test(file) &&
        !/\.(test|examples)\.ts$/.test(file) &&
        !file.includes('test-support'),
    );
    expect(runtime).toContain('handler.ts');
    expect(runtime).toContain('legacy/session.ts');
    for (const file of runtime) {
      const source = await readFile(new URL(file, dir), 'utf8');
      expect(source, file).not.toMatch(/from ['"]node:/);
    }
  });
});
