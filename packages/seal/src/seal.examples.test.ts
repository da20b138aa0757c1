import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateKey } from './keys.js';
import { keysFromEnv, kmsSealer, onTheWire, quickStart } from './seal.examples.js';
import { reasonOf } from './test-support/flavours.js';

const read = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8');

/** The regions of the examples file as the README shows them (see the header of seal.examples.ts). */
function regions(source: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [, name, body] of source.matchAll(/\/\/ #region ([\w-]+)\n([\s\S]*?)\n\s*\/\/ #endregion \1/g)) {
    const lines = body!.split('\n');
    const indent = Math.min(
      ...lines.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length),
    );
    const text = lines.map((l) => l.slice(indent).replace(/^\/\/ (import .*)$/, '$1')).join('\n');
    out.set(name!, text);
  }
  return out;
}

describe('README examples', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('quotes every example region verbatim, and has no unchecked TypeScript blocks', () => {
    const examples = regions(read('./seal.examples.ts'));
    const blocks = [...read('../README.md').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!.trimEnd());
    expect(examples.size).toBe(4);
    expect(blocks.sort()).toEqual([...examples.values()].sort());
    expect(read('../README.md').indexOf(examples.get('quick-start')!)).toBeLessThan(800); // the first thing
  });

  it('quick start runs and round-trips', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    expect(quickStart()).toEqual({ cart: 42, step: 'payment' });
    expect(log.mock.calls[0]![0]).toMatch(/^sl1_[A-Za-z0-9_-]+$/);
  });

  it('keys from the environment', () => {
    vi.stubEnv(
      'SEAL_KEYS',
      `${Buffer.from(generateKey()).toString('base64url')},${Buffer.from(generateKey()).toString('hex')}`,
    );
    const sealer = keysFromEnv();
    expect(sealer.unseal(sealer.seal(Uint8Array.of(1)))).toEqual(Uint8Array.of(1));
    vi.stubEnv('SEAL_KEYS', '');
    expect(() => keysFromEnv()).toThrow(RangeError);
  });

  it('on the wire: one fixed message, the reason in the log', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const sealer = keysFromEnvWith(generateKey());
    const token = sealer.sealJson({ ok: true }, { context: 'checkout:42' });
    expect(onTheWire(sealer, token)).toEqual({ ok: true });
    expect(() => onTheWire(sealer, sealer.sealJson({}, { context: 'checkout:43' }))).toThrow(
      'Invalid or expired state',
    );
    expect(() => onTheWire(sealer, `${token}x`)).toThrow('Invalid or expired state');
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      'state rejected: context',
      'state rejected: malformed',
    ]);
  });

  it('KMS codec: claims enforced around it, failures closed as forged', async () => {
    const dataKey = generateKey();
    const kms = { decrypt: vi.fn(async () => dataKey) };
    const sealer = await kmsSealer(kms, Uint8Array.of(1, 2, 3));
    expect(kms.decrypt).toHaveBeenCalledOnce();
    const token = sealer.sealJson({ invoice: 7 }, { context: 'inv:7' });
    expect(token.startsWith('kms1.')).toBe(true);
    expect(sealer.unsealJson(token, { context: 'inv:7' })).toEqual({ invoice: 7 });
    expect(reasonOf(() => sealer.unsealJson(token, { context: 'inv:8' }))).toBe('context');
    expect(reasonOf(() => sealer.unsealJson(`${token.slice(0, -2)}AA`, { context: 'inv:7' }))).toBe('forged');
    expect(reasonOf(() => sealer.unsealJson(`${token}=`, { context: 'inv:7' }))).toBe('forged');
  });
});

function keysFromEnvWith(key: Uint8Array) {
  vi.stubEnv('SEAL_KEYS', Buffer.from(key).toString('base64url'));
  return keysFromEnv();
}
