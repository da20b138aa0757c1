// The fetch handler and the Client bundled by esbuild for `--platform=neutral` (no node built-ins to fall back
// on): the bundle builds, imports no `node:` module, and the bundled handler and Client run an MRTR call.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt } from '@boomerang/test-kit/built';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDir, fixture } from './test-support/runtimes.js';

let bundle: { text: string; bytes: number };
let dir: string;

beforeAll(async () => {
  const unbuilt = ensureBuilt({ appDir }); // the bundle is made of the packages' dist, as a consumer's is
  if (unbuilt !== undefined) throw new Error(unbuilt);
  const result = await build({
    entryPoints: [fixture('edge-entry.mjs')],
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild wrote no output');
  bundle = { text: output.text, bytes: output.contents.byteLength };
  dir = await mkdtemp(join(tmpdir(), 'boomerang-neutral-'));
}, 300_000);

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('esbuild --platform=neutral bundle of the fetch handler and the Client', () => {
  it('imports no node: module, and no node built-in by its bare name', () => {
    expect(bundle.bytes).toBeGreaterThan(10_000);
    const nodeImports = bundle.text.match(/(?:from\s*|import\s*\(\s*|require\s*\(\s*)["']node:[^"']+["']/g);
    expect(nodeImports).toBeNull();
    const bare = bundle.text.match(
      /(?:from\s*|import\s*\(\s*|require\s*\(\s*)["'](?:crypto|http|https|stream|events|buffer|fs|net|os|path|url|util|zlib)["']/g,
    );
    expect(bare).toBeNull();
    expect(bundle.text).not.toMatch(/^import\s.+from\s/m); // self-contained: nothing left to resolve
    console.info(`neutral bundle: ${(bundle.bytes / 1024).toFixed(0)} KiB (unminified)`);
  });

  it('runs: the bundled fetch handler answers the bundled Client, one MRTR round', async () => {
    const file = join(dir, 'edge.mjs');
    await writeFile(file, bundle.text);
    const edge = (await import(pathToFileURL(file).href)) as {
      default: { fetch: (request: Request) => Promise<Response> };
      connect(
        url: string,
        fetch: (input: URL, init: RequestInit) => Promise<Response>,
      ): Promise<{
        callTool(name: string, args: object): Promise<{ content: { type: string; text?: string }[] }>;
        close(): Promise<void>;
      }>;
    };
    const client = await edge.connect('http://localhost:8787/mcp', (input, init) =>
      edge.default.fetch(new Request(input, init)),
    );
    try {
      const result = await client.callTool('greet', {});
      expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    } finally {
      await client.close();
    }
    const rebound = await edge.default.fetch(
      new Request('http://evil.example:8787/mcp', { method: 'POST', headers: { host: 'evil.example:8787' } }),
    );
    expect(rebound.status).toBe(403);
  });
});
