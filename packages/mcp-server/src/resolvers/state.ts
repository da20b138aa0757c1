// The resolver engine's request state: the plaintext the low-level server seals into `requestState`.
//
// Format (JSON, version 2):
//
//     {"v":2,"answers":{"r0":{"q":"<digest>","a":<recorded answer>}, …}}
//     {"v":2,"answers":{…},"asked":{"r2":"<digest>", …}}           (answerBinding 'round')
//
// - keys are the plan's node keys (`r<position>`), never names;
// - `answers`: every answer consumed so far and still bound to a question, with `q` the digest of the exact
//   question it answered. `a` is the client's answer as validated: `{action, content?}` for elicitations, the
//   `CreateMessageResult` / `ListRootsResult` for sampling and roots;
// - `asked` (answerBinding 'round' only): the digest of each question sent in the round that minted this state;
//   an answer in `inputResponses` is then consumed only when `asked` holds the digest of the question asked now;
// - `q` = base64url(SHA-256(canonical JSON of the rendered input request))[0..16 bytes] (22 characters).
//   Canonical JSON sorts object keys at every depth, so the digest depends on the question, not on the order
//   its params were built in.
//
// With answerBinding 'question' (the default), a round with no answer to carry has no state at all: the
// question a fresh answer belongs to travels in its wire key (`r<position>.<digest>`, see run.ts), so a first
// round seals nothing.
//
// The state is authenticated by the server's envelope before it reaches us, so a state that does not parse
// reads as "no progress" (e.g. a rolling deploy across format versions): everything is asked again.

import { isPlainObject } from '@boomerang/protocol';
import { canonicalJson, encodeBase64Url } from '@boomerang/seal';
import { sha256 } from '@noble/hashes/sha2.js';

/** The state format version; a state with another version reads as empty. */
export const STATE_VERSION = 2;

/** One recorded answer: the digest of the question it answered, and the answer. */
export interface RecordedAnswer {
  readonly q: string;
  readonly a: unknown;
}

/** Decoded state: recorded answers, and (answerBinding 'round') the questions asked in the previous round. */
export interface ResolverState {
  readonly answers: ReadonlyMap<string, RecordedAnswer>;
  /** Present only in a state minted under answerBinding 'round'. */
  readonly asked?: ReadonlyMap<string, string> | undefined;
}

const EMPTY: ResolverState = { answers: new Map() };

/** Reads a plaintext state; anything but a well-formed version-2 state reads as empty. Never throws. */
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
  if (!isPlainObject(answers) || (asked !== undefined && !isPlainObject(asked))) return EMPTY;
  const decoded = new Map<string, RecordedAnswer>();
  for (const [key, entry] of Object.entries(answers)) {
    if (isPlainObject(entry) && typeof entry.q === 'string' && Object.hasOwn(entry, 'a')) {
      decoded.set(key, { q: entry.q, a: entry.a });
    }
  }
  if (asked === undefined) return { answers: decoded };
  const questions = new Map<string, string>();
  for (const [key, q] of Object.entries(asked)) if (typeof q === 'string') questions.set(key, q);
  return { answers: decoded, asked: questions };
}

/** Writes a state (keys in the order given; `asked` only when present). */
export function encodeState({ answers, asked }: ResolverState): string {
  const state: Record<string, unknown> = { v: STATE_VERSION, answers: Object.fromEntries(answers) };
  if (asked !== undefined) state.asked = Object.fromEntries(asked);
  return JSON.stringify(state);
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
