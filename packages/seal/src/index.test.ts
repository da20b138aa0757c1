import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as portable from './index.js';
import * as node from './index.node.js';

/** The part of esbuild's result this test reads (esbuild is tsup's dependency, not ours, so no types). */
interface BuildResult {
  errors: unknown[];
  metafile: { inputs: Record<string, unknown> };
  outputFiles: { text: string }[];
}

const PUBLIC_API = [
  'SEAL_ERROR_REASONS',
  'SealError',
  'canonicalJson',
  'createSealer',
  'decodeBase64Url',
  'encodeBase64Url',
  'generateKey',
  'parseKeys',
  'sealBackend',
];

describe('@boomerang/seal', () => {
  it('exports exactly its public API, the same names from both entries', () => {
    expect(Object.keys(portable).sort()).toEqual(PUBLIC_API);
    expect(Object.keys(node).sort()).toEqual(PUBLIC_API);
    expect(portable.sealBackend).toBe('portable');
    expect(node.sealBackend).toBe('node');
    // Shared modules are shared: one SealError class, whichever entry threw it.
    expect(node.SealError).toBe(portable.SealError);
  });

  it('lists every rejection reason', () => {
    expect([...portable.SEAL_ERROR_REASONS].sort()).toEqual(
      [
        'audience',
        'context',
        'expired',
        'forged',
        'malformed',
        'not-yet-valid',
        'too-large',
        'unknown-key',
      ].sort(),
    );
  });

  it('maps "." to the node build under the `node` condition and to the portable build otherwise', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(manifest.exports).toEqual({
      '.': {
        '@boomerang/source': './src/index.ts',
        node: { types: './dist/types/index.node.d.ts', default: './dist/index.node.js' },
        types: './dist/types/index.d.ts',
        default: './dist/index.js',
      },
      './portable': {
        '@boomerang/source': './src/index.ts',
        types: './dist/types/index.d.ts',
        default: './dist/index.js',
      },
      './package.json': './package.json',
    });
    expect(manifest.bin).toEqual({ 'boomerang-seal': './bin/boomerang-seal.js' });
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@noble/ciphers', '@noble/hashes']);
  });

  it('bundles the runtime entry for a browser with no Node built-ins', async () => {
    // esbuild as tsup ships it (no extra dependency): resolved from tsup's own location.
    const fromTsup = createRequire(createRequire(import.meta.url).resolve('tsup'));
    const esbuild = (await import(fromTsup.resolve('esbuild'))) as {
      build(options: object): Promise<BuildResult>;
    };
    const result = await esbuild.build({
      entryPoints: [fileURLToPath(new URL('./index.ts', import.meta.url))],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((f) => f.includes('backend-node') || f.startsWith('node:'))).toBe(false);
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/\bnode:|\brequire\(|\bBuffer\b|\bprocess\./);
    expect(code).toContain('xchacha');
  });
});
