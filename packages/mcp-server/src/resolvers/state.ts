// The resolver engine's request state: the plaintext the low-level server seals into `requestState`.
//
// Format (JSON, version 1):
//
//     {"v":1,
//      "answers":{"r0":{"q":"<digest>","a":<recorded answer>}, …},
//      "asked":{"r2":"<digest>", …}}
//
// - keys are the plan's wire keys (`r<position>`), never names;
// - `answers`: every answer consumed so far and still bound to a question, with `q` the digest of the exact
//   question it answered. `a` is the client's answer as validated: `{action, content?}` for elicitations, the
//   `CreateMessageResult` / `ListRootsResult` for sampling and roots;
// - `asked`: the digest of each question sent in the round that minted this state. An answer in
//   `inputResponses` is consumed only when `asked` holds the digest of the question the resolver asks now:
//   an answer without the state that asked for it, or to a question since reworded, is never consumed.
// - `q` = base64url(SHA-256(canonical JSON of the rendered input request))[0..16 bytes] (22 characters).
//   Canonical JSON sorts object keys at every depth, so the digest depends on the question, not on the order
//   its params were built in.
//
// The state is authenticated by the server's envelope before it reaches us, so a state that does not parse
// reads as "no progress" (e.g. a rolling deploy across format versions): everything is asked again.

import { isPlainObject } from '@boomerang/protocol';
import { canonicalJson, encodeBase64Url } from '@boomerang/seal';
import { sha256 } from '@noble/hashes/sha2.js';

/** The state format version; a state with another version reads as empty. */
export const STATE_VERSION = 1;

/** One recorded answer: the digest of the question it answered, and the answer. */
export interface RecordedAnswer {
  readonly q: string;
  readonly a: unknown;
}

/** Decoded state: recorded answers and the questions asked in the previous round, by wire key. */
export interface ResolverState {
  readonly answers: ReadonlyMap<string, RecordedAnswer>;
  readonly asked: ReadonlyMap<string, string>;
}

const EMPTY: ResolverState = { answers: new Map(), asked: new Map() };

/** Reads a plaintext state; anything but a well-formed version-1 state reads as empty. Never throws. */
export function decodeState(state: string | undefined): ResolverState {
  if (state === undefined) return EMPTY;
  let json: unknown;
  try {
    json = JSON.parse(state);
  } catch {
    return EMPTY;
  }
  if (!isPlainObject(json) || json.v !== STATE_VERSION) return EMPTY;
  const { answers, asked } = json;
  if (!isPlainObject(answers) || !isPlainObject(asked)) return EMPTY;
  const decoded = { answers: new Map<string, RecordedAnswer>(), asked: new Map<string, string>() };
  for (const [key, entry] of Object.entries(answers)) {
    if (isPlainObject(entry) && typeof entry.q === 'string' && Object.hasOwn(entry, 'a')) {
      decoded.answers.set(key, { q: entry.q, a: entry.a });
    }
  }
  for (const [key, q] of Object.entries(asked)) if (typeof q === 'string') decoded.asked.set(key, q);
  return decoded;
}

/** Writes a state (keys in the order given). */
export function encodeState(state: ResolverState): string {
  return JSON.stringify({
    v: STATE_VERSION,
    answers: Object.fromEntries(state.answers),
    asked: Object.fromEntries(state.asked),
  });
}

/** UTF-8 length of a string, without allocating the bytes. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

const encoder = new TextEncoder();

/**
 * The question digest: base64url of the first 16 bytes of SHA-256 over the canonical JSON of `request`.
 * Synchronous (a JS SHA-256 over a few hundred bytes costs microseconds; Web Crypto's async `digest` costs a
 * thread-pool round trip per question, which dominated a resolver round).
 */
export function questionDigest(request: unknown): string {
  // 16 bytes: 22 base64url characters.
  return encodeBase64Url(sha256(encoder.encode(canonicalJson(request))).subarray(0, 16));
}
