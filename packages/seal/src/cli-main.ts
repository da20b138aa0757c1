import { parseArgs } from 'node:util';
import { nodeBackend } from './backend-node.js';
import { encodeBase64Url } from './base64url.js';
import { toHex } from './bytes.js';
import { type Claims, decodeClaims } from './claims.js';
import { FORMAT_PREFIX_TEXT, keyRingEnvelope, parseToken } from './envelope.js';
import { SealError } from './errors.js';
import { createKeyRing, generateKey, parseKeys } from './keys.js';

/** Where the CLI reads and writes; `bin` passes the process's, tests pass their own. */
export interface CliIo {
  /** Receives normal output, one call per line. */
  stdout(line: string): void;
  /** Receives errors and usage, one call per line. */
  stderr(line: string): void;
  /** Environment variables, for `--key-env`. */
  env: Readonly<Record<string, string | undefined>>;
  /** The time, epoch milliseconds (tells how long a token has left). */
  now(): number;
}

/** Exit codes: success, a token that does not check out, a usage error. */
export const EXIT = { ok: 0, rejected: 1, usage: 2 } as const;

const HELP = `boomerang-seal: operator tools for @boomerang/seal tokens

Usage:
  boomerang-seal keygen [--hex]
      Print a fresh 32-byte key (base64url, or hex with --hex). Keep it secret;
      pass keys to your service as a comma-separated list, newest first.

  boomerang-seal inspect <token> [--key <keys> | --key-env <NAME>]
      Print the token's format and key id. With a key, also decrypt it and print
      its claims (issued at, expires at, audience, context digest, payload size).
      --key-env reads the keys from an environment variable (keeps them out of
      your shell history). Claims are shown, not enforced.

  boomerang-seal --help

Exit status: 0 ok, 1 the token is malformed or does not open, 2 usage error.
`;

/**
 * Runs the `boomerang-seal` command line: `keygen` and `inspect`. Returns the exit code and never throws for
 * bad input: every failure is a message on `stderr` and a non-zero code.
 */
export function runCli(argv: readonly string[], io: CliIo): number {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    return usage(io, error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || command === 'help') {
    for (const line of HELP.trimEnd().split('\n')) io.stdout(line);
    return EXIT.ok;
  }
  if (command === 'keygen') {
    if (rest.length > 0 || values.key !== undefined || values['key-env'] !== undefined) {
      return usage(io, 'keygen takes no arguments besides --hex');
    }
    const key = generateKey();
    io.stdout(values.hex ? toHex(key) : encodeBase64Url(key));
    return EXIT.ok;
  }
  if (command === 'inspect') {
    if (rest.length !== 1) return usage(io, 'inspect takes exactly one token');
    if (values.hex) return usage(io, '--hex belongs to keygen');
    return inspect(rest[0]!, values, io);
  }
  return usage(io, command === undefined ? 'missing command' : `unknown command "${command}"`);
}

function parse(argv: readonly string[]) {
  // A base64url key may start with "-", which parseArgs would read as an option: bind values to their flag.
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if ((arg === '--key' || arg === '--key-env') && next !== undefined) {
      args.push(`${arg}=${next}`);
      i++;
    } else {
      args.push(arg);
    }
  }
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      hex: { type: 'boolean' },
      key: { type: 'string' },
      'key-env': { type: 'string' },
    },
  });
}

function usage(io: CliIo, message: string): number {
  io.stderr(`boomerang-seal: ${message}`);
  io.stderr('Run "boomerang-seal --help" for usage.');
  return EXIT.usage;
}

function inspect(token: string, values: { key?: string; 'key-env'?: string }, io: CliIo): number {
  if (values.key !== undefined && values['key-env'] !== undefined) {
    return usage(io, 'give either --key or --key-env, not both');
  }
  let keyText = values.key;
  if (values['key-env'] !== undefined) {
    keyText = io.env[values['key-env']];
    if (keyText === undefined) return usage(io, `environment variable ${values['key-env']} is not set`);
  }
  let ring: ReturnType<typeof createKeyRing> | undefined;
  try {
    if (keyText !== undefined) ring = createKeyRing(parseKeys(keyText), nodeBackend);
  } catch (error) {
    return usage(io, `bad key: ${error instanceof Error ? error.message : String(error)}`);
  }
  let parts: ReturnType<typeof parseToken>;
  try {
    parts = parseToken(token, nodeBackend);
  } catch {
    io.stderr(
      `boomerang-seal: not a v1 token (expected canonical base64url starting with "${FORMAT_PREFIX_TEXT}")`,
    );
    return EXIT.rejected;
  }
  const rows: [string, string][] = [
    ['format', `${FORMAT_PREFIX_TEXT.slice(0, 3)} (v1: XChaCha20-Poly1305, HKDF-SHA256 keys)`],
    ['key id', toHex(parts.keyId)],
    ['token', `${token.length} characters`],
    ['ciphertext', `${parts.sealed.length} bytes (claims, payload, 16-byte tag)`],
  ];
  if (ring !== undefined) {
    let plain: Uint8Array;
    try {
      plain = keyRingEnvelope(ring, nodeBackend).open(token);
    } catch (error) {
      const reason = error instanceof SealError ? error.reason : 'error';
      print(io, rows);
      io.stderr(
        reason === 'unknown-key'
          ? 'boomerang-seal: none of the given keys has this key id'
          : `boomerang-seal: the token does not open under its key (${reason})`,
      );
      return EXIT.rejected;
    }
    const parsed = decodeClaims(plain);
    if (parsed === undefined) {
      print(io, rows);
      io.stderr('boomerang-seal: the token opens, but its claims are not v1 (malformed)');
      return EXIT.rejected;
    }
    rows.push(...claimRows(parsed.claims, plain.length - parsed.payloadOffset, io.now()));
  }
  print(io, rows);
  return EXIT.ok;
}

function claimRows(claims: Claims, payloadBytes: number, now: number): [string, string][] {
  const left = claims.exp * 1000 - now;
  return [
    ['issued at', `${new Date(claims.iat * 1000).toISOString()} (${claims.iat})`],
    [
      'expires at',
      `${new Date(claims.exp * 1000).toISOString()} (${claims.exp}), ${left > 0 ? `in ${span(left)}` : `expired ${span(-left)} ago`}`,
    ],
    [
      'audience',
      claims.audience.length > 0 ? JSON.stringify(new TextDecoder().decode(claims.audience)) : '(none)',
    ],
    ['context', claims.context ? `sha256:${toHex(claims.context)}` : '(none)'],
    ['payload', `${payloadBytes} bytes`],
  ];
}

function span(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h`;
}

function print(io: CliIo, rows: [string, string][]): void {
  for (const [name, value] of rows) io.stdout(`${name.padEnd(11)}${value}`);
}
