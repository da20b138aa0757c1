import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXIT, runCli } from './cli-main.js';
import { createSealer } from './index.node.js';
import { generateKey, parseKeys } from './keys.js';

const NOW = Date.UTC(2026, 6, 28, 12);

function run(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = runCli(argv, { stdout: (l) => out.push(l), stderr: (l) => err.push(l), env, now: () => NOW });
  return { code, out, err, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('boomerang-seal', () => {
  const key = generateKey();
  const keyText = Buffer.from(key).toString('base64url');
  const sealer = createSealer({ keys: [key], audience: 'orders', clock: () => NOW, ttlSeconds: 600 });
  const token = sealer.seal(new Uint8Array(11), { context: 'checkout:42' });

  it('keygen prints a fresh base64url key that parseKeys reads back', () => {
    const a = run(['keygen']);
    expect(a.code).toBe(EXIT.ok);
    expect(a.out).toHaveLength(1);
    expect(parseKeys(a.stdout)[0]).toHaveLength(32);
    expect(run(['keygen']).stdout).not.toBe(a.stdout);
    const hex = run(['keygen', '--hex']);
    expect(hex.stdout).toMatch(/^[0-9a-f]{64}$/);
    expect(parseKeys(hex.stdout)[0]).toHaveLength(32);
  });

  it('inspect without a key prints the format and the key id', () => {
    const r = run(['inspect', token]);
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toMatch(/^format +sl1 \(v1: XChaCha20-Poly1305/m);
    expect(r.stdout).toMatch(/^key id +[0-9a-f]{10}$/m);
    expect(r.stdout).not.toMatch(/audience|issued/);
  });

  it('inspect --key decrypts and prints the claims', () => {
    const r = run(['inspect', token, '--key', keyText]);
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toContain(`issued at  ${new Date(NOW).toISOString()} (${NOW / 1000})`);
    expect(r.stdout).toMatch(/^expires at .*, in 10m 0s$/m);
    expect(r.stdout).toMatch(/^audience +"orders"$/m);
    expect(r.stdout).toMatch(/^context +sha256:[0-9a-f]{64}$/m);
    expect(r.stdout).toMatch(/^payload +11 bytes$/m);
  });

  it('takes keys that start with "-" (1 in 64 base64url keys do)', () => {
    const dashKey = Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 0xf8 : i));
    const dashText = Buffer.from(dashKey).toString('base64url');
    expect(dashText.startsWith('-')).toBe(true);
    const dashToken = createSealer({ keys: [dashKey], clock: () => NOW }).seal(new Uint8Array(3));
    expect(run(['inspect', dashToken, '--key', dashText]).stdout).toMatch(/^payload +3 bytes$/m);
    expect(run(['inspect', '--key', dashText, dashToken]).stdout).toMatch(/^payload +3 bytes$/m);
  });

  it('inspect --key-env reads the keys from the environment (any of several)', () => {
    const r = run(['inspect', token, '--key-env', 'SEAL_KEYS'], {
      SEAL_KEYS: `${Buffer.from(generateKey()).toString('base64url')},${keyText}`,
    });
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toMatch(/^audience +"orders"$/m);
  });

  it('shows expired tokens as such (claims are shown, not enforced)', () => {
    const old = createSealer({ keys: [key], clock: () => NOW - 3_600_000, ttlSeconds: 60 }).seal(
      new Uint8Array(),
    );
    const r = run(['inspect', old, '--key', keyText]);
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toMatch(/expired 59m 0s ago/);
    expect(r.stdout).toMatch(/^audience +\(none\)$/m);
    expect(r.stdout).toMatch(/^context +\(none\)$/m);
  });

  it.each([
    ['no command', [], EXIT.usage, /missing command/],
    ['an unknown command', ['encrypt'], EXIT.usage, /unknown command "encrypt"/],
    ['an unknown option', ['keygen', '--bits', '256'], EXIT.usage, /Unknown option '--bits'/],
    ['keygen with arguments', ['keygen', 'extra'], EXIT.usage, /keygen takes no arguments/],
    ['inspect without a token', ['inspect'], EXIT.usage, /exactly one token/],
    ['inspect with two tokens', ['inspect', 'a', 'b'], EXIT.usage, /exactly one token/],
    ['--key without value', ['inspect', 'x', '--key'], EXIT.usage, /argument missing/],
    [
      'both key options',
      ['inspect', 'x', '--key', 'k', '--key-env', 'K'],
      EXIT.usage,
      /either --key or --key-env/,
    ],
    ['an unset variable', ['inspect', 'x', '--key-env', 'NOPE'], EXIT.usage, /NOPE is not set/],
    ['a short key', ['inspect', 'x', '--key', 'c2hvcnQ'], EXIT.usage, /bad key: .*length ≥ 32, got 5/],
    ['garbage', ['inspect', 'hello world'], EXIT.rejected, /not a v1 token/],
    ['padding', ['inspect', `${'x'}==`], EXIT.rejected, /not a v1 token/],
    ['Unicode', ['inspect', 'sl1_é'], EXIT.rejected, /not a v1 token/],
  ])('fails cleanly on %s', (_label, argv, code, message) => {
    const r = run(argv as string[]);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
    if (code === EXIT.usage) expect(r.stderr).toContain('--help');
  });

  it('fails cleanly on the wrong key, a tampered token, a token from elsewhere', () => {
    const wrong = run(['inspect', token, '--key', Buffer.from(generateKey()).toString('base64url')]);
    expect(wrong.code).toBe(EXIT.rejected);
    expect(wrong.stderr).toMatch(/none of the given keys has this key id/);
    expect(wrong.stdout).toMatch(/^key id/m);
    const bytes = Buffer.from(token, 'base64url');
    bytes[40] = bytes[40]! ^ 1;
    const tampered = run(['inspect', bytes.toString('base64url'), '--key', keyText]);
    expect(tampered.code).toBe(EXIT.rejected);
    expect(tampered.stderr).toMatch(/does not open under its key \(forged\)/);
  });

  it('--help describes both commands', () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['inspect', '--help']]) {
      const r = run(argv);
      expect(r.code).toBe(EXIT.ok);
      expect(r.stdout).toMatch(/boomerang-seal keygen/);
      expect(r.stdout).toMatch(/boomerang-seal inspect <token>/);
    }
  });
});

// The bin itself (shebang, exit codes) when a build is around; `pnpm --filter @boomerang/seal build` makes one.
const bin = fileURLToPath(new URL('../bin/boomerang-seal.js', import.meta.url));
describe.skipIf(!existsSync(fileURLToPath(new URL('../dist/cli.js', import.meta.url))))(
  'bin/boomerang-seal.js',
  () => {
    it('runs as a program and exits with the documented codes', () => {
      const keygen = spawnSync(bin, ['keygen'], { encoding: 'utf8' });
      expect(keygen.status).toBe(EXIT.ok);
      expect(keygen.stdout).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
      expect(spawnSync(bin, ['frobnicate'], { encoding: 'utf8' }).status).toBe(EXIT.usage);
      expect(spawnSync(bin, ['inspect', 'nope'], { encoding: 'utf8' }).status).toBe(EXIT.rejected);
    });
  },
);
