import type { Aead, Backend } from './backend.js';
import { decodeBase64Url } from './base64url.js';
import { concatBytes, equalBytes, hexToBytes, readU32 } from './bytes.js';
import { describe, expectBytes } from './errors.js';

/** The shortest operator secret accepted: 32 bytes, the cipher's own key size. */
export const MIN_KEY_BYTES = 32;
/** Bytes of a key id on the wire. */
export const KEY_ID_BYTES = 5;

const utf8 = /* @__PURE__ */ new TextEncoder();
const CIPHER_KEY_INFO = /* @__PURE__ */ utf8.encode('boomerang-seal/v1 xchacha20-poly1305 key');
const KEY_ID_LABEL = /* @__PURE__ */ utf8.encode('boomerang-seal/v1 key id');
const HEX = /^[0-9a-fA-F]{64,}$/;

/**
 * A fresh operator secret: 32 bytes from the platform CSPRNG (`crypto.getRandomValues`). Store it as
 * base64url (what `boomerang-seal keygen` prints) or hex, and read it back with {@link parseKeys}.
 */
export function generateKey(): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(MIN_KEY_BYTES));
}

/**
 * Reads operator secrets from text, typically an environment variable: comma-separated entries, surrounding
 * whitespace ignored. An entry of 64 or more hex digits is hex; any other entry is base64url (standard base64
 * with `+`, `/` and `=` padding is accepted too, so `openssl rand -base64 32` works). Every entry must decode to
 * at least 32 bytes. The order is kept: the first key seals, all of them unseal.
 *
 * @throws TypeError when `text` is not a string.
 * @throws RangeError for an empty list, an empty entry, an entry that is neither encoding, or a short key.
 */
export function parseKeys(text: string): Uint8Array[] {
  if (typeof text !== 'string') throw new TypeError(`"text" expected string, got ${describe(text)}`);
  if (text.trim() === '') throw new RangeError('"text" expected at least one key, got an empty string');
  return text.split(',').map((raw, i) => {
    const entry = raw.trim();
    const title = `keys[${i}]`;
    if (entry === '') throw new RangeError(`"${title}" is empty`);
    let key: Uint8Array | undefined;
    if (HEX.test(entry)) {
      if (entry.length % 2 !== 0) throw new RangeError(`"${title}" has an odd number of hex digits`);
      key = hexToBytes(entry);
    } else {
      key = decodeBase64Url(
        entry
          .replace(/\+/g, '-')
          .replace(/\//g, '_')
          .replace(/={1,2}$/, ''),
      );
      if (key === undefined) throw new RangeError(`"${title}" is neither hex nor base64url`);
    }
    expectBytes(key, title, MIN_KEY_BYTES);
    return key;
  });
}

/**
 * The cipher key for an operator secret: HKDF-SHA256 (RFC 5869, empty salt) with a label naming the format
 * version and the cipher, so the same secret yields unrelated keys for any other use or future version.
 */
export function deriveCipherKey(secret: Uint8Array, backend: Backend): Uint8Array {
  return backend.hkdfSha256(secret, CIPHER_KEY_INFO, 32);
}

/**
 * The key id of a cipher key: the first 5 bytes of SHA-256(label || cipher key). Public by design (it travels
 * in clear in every token, to pick the ring slot in O(1)); a hash of the derived key reveals nothing usable
 * about it or about the operator secret. 40 bits make an accidental clash between two keys of one ring
 * (refused at construction) a one-in-a-trillion event, and make a token under a foreign key read as
 * `unknown-key` rather than `forged` with the same odds.
 */
export function keyIdOf(cipherKey: Uint8Array, backend: Backend): Uint8Array {
  return backend.sha256(concatBytes(KEY_ID_LABEL, cipherKey)).subarray(0, KEY_ID_BYTES);
}

/** One key of the ring: its public id and its cipher. */
export interface KeySlot {
  readonly id: Uint8Array;
  readonly aead: Aead;
}

/** The keys of a sealer: `primary` seals, `lookup` finds the slot for a token's key id. */
export interface KeyRing {
  readonly primary: KeySlot;
  /** The slot with this key id (5 bytes), if any. */
  lookup(id: Uint8Array): KeySlot | undefined;
}

/**
 * Validates operator secrets and builds the ring. Never coerces: a non-array, a non-bytes entry (a string, a
 * number) is a `TypeError`; an empty list, a key under 32 bytes, or a duplicate key is a `RangeError`.
 */
export function createKeyRing(keys: unknown, backend: Backend): KeyRing {
  if (!Array.isArray(keys)) throw new TypeError(`"keys" expected array of Uint8Array, got ${describe(keys)}`);
  if (keys.length === 0) throw new RangeError('"keys" expected at least 1 key, got 0');
  const slots = new Map<number, KeySlot>();
  const seen: { secret: Uint8Array; index: number }[] = [];
  keys.forEach((secret: unknown, index) => {
    expectBytes(secret, `keys[${index}]`, MIN_KEY_BYTES);
    const twin = seen.find((s) => equalBytes(s.secret, secret));
    if (twin) throw new RangeError(`"keys[${index}]" duplicates "keys[${twin.index}]"`);
    seen.push({ secret, index });
    const cipherKey = deriveCipherKey(secret, backend);
    const id = keyIdOf(cipherKey, backend);
    const n = idNumber(id);
    if (slots.has(n))
      throw new RangeError(`"keys[${index}]" has the key id of an earlier key; generate another`);
    slots.set(n, { id, aead: backend.aead(cipherKey) });
  });
  const primary = slots.values().next().value;
  if (!primary) throw new RangeError('"keys" expected at least 1 key, got 0');
  return { primary, lookup: (id) => slots.get(idNumber(id)) };
}

/** A 5-byte key id as one number (exact: 40 bits fit a double), the ring's map key. */
function idNumber(id: Uint8Array): number {
  return id[0]! * 2 ** 32 + readU32(id, 1);
}
