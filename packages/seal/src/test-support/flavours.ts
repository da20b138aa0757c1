// Every way to build a sealer, so that one suite runs over all of them (STYLE: "run the seal suite over every
// codec"): the portable and node backends with keys, and a user codec (AES-256-GCM-SIV, base64url).
import { gcmsiv } from '@noble/ciphers/aes.js';
import { randomBytes } from '@noble/ciphers/utils.js';
import { decodeBase64Url, encodeBase64Url } from '../base64url.js';
import type { SealCodec } from '../envelope.js';
import * as portable from '../index.js';
import * as node from '../index.node.js';
import type { Sealer, SealerCommonOptions } from '../sealer.js';

/** One way to build sealers; `make` takes a secret (32+ bytes) and the common options. */
export interface Flavour {
  readonly name: string;
  /** The reason a syntactically broken token string gets: the ring checks syntax, a codec just fails. */
  readonly brokenReason: 'malformed' | 'forged';
  make(secret: Uint8Array, options?: SealerCommonOptions): Sealer;
}

/** A codec as a user would write one: AES-256-GCM-SIV with a random nonce, canonical base64url. */
export function gcmSivCodec(secret: Uint8Array): SealCodec {
  const key = secret.subarray(0, 32);
  return {
    seal(bytes) {
      const nonce = randomBytes(12);
      const box = gcmsiv(key, nonce).encrypt(bytes);
      const out = new Uint8Array(12 + box.length);
      out.set(nonce);
      out.set(box, 12);
      return encodeBase64Url(out);
    },
    unseal(token) {
      const bytes = decodeBase64Url(token);
      if (bytes === undefined || bytes.length < 28) throw new Error('bad token');
      return gcmsiv(key, bytes.subarray(0, 12)).decrypt(bytes.subarray(12));
    },
  };
}

export const flavours: readonly Flavour[] = [
  {
    name: 'keys, portable backend',
    brokenReason: 'malformed',
    make: (secret, options = {}) => portable.createSealer({ ...options, keys: [secret] }),
  },
  {
    name: 'keys, node backend',
    brokenReason: 'malformed',
    make: (secret, options = {}) => node.createSealer({ ...options, keys: [secret] }),
  },
  {
    name: 'user codec (AES-256-GCM-SIV)',
    brokenReason: 'forged',
    make: (secret, options = {}) => portable.createSealer({ ...options, codec: gcmSivCodec(secret) }),
  },
];

/** The two backends' public entries, for cross tests. */
export const entries = [
  { name: 'portable', api: portable },
  { name: 'node', api: node },
] as const;

/** A clock the test moves by hand (epoch ms). */
export function manualClock(start = Date.UTC(2026, 6, 28, 12)): {
  now: () => number;
  advance(ms: number): void;
} {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}

/** The `reason` of the SealError `fn` throws; fails the test when it throws something else or nothing. */
export function reasonOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof portable.SealError) return error.reason;
    throw error;
  }
  throw new Error('expected a SealError, got a result');
}
