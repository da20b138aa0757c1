import type { Backend } from './backend.js';
import { base64UrlLength } from './base64url.js';
import { equalBytes } from './bytes.js';
import {
  type Claims,
  contextDigest,
  decodeClaims,
  encodeClaims,
  MAX_AUDIENCE_BYTES,
  MAX_EPOCH_SECONDS,
  PreparedContext,
  prepared,
} from './claims.js';
import { codecEnvelope, type Envelope, keyRingEnvelope, type SealCodec } from './envelope.js';
import { describe, expectBytes, expectInteger, SealError } from './errors.js';
import { createKeyRing } from './keys.js';

/** Default lifetime of a token: 10 minutes. */
export const DEFAULT_TTL_SECONDS = 600;
/** Default longest token `unseal` looks at, and `seal` mints: 64 KiB of text (about 48 KiB of payload). */
export const DEFAULT_MAX_TOKEN_BYTES = 65_536;
/** How far in the future a token's issued-at may lie (clocks of a fleet drift) before it is `not-yet-valid`. */
export const CLOCK_SKEW_SECONDS = 60;
const MAX_TTL_SECONDS = 0x7fff_ffff;
const MAX_TOKEN_LIMIT = 1 << 30;

/** Options shared by both ways to build a sealer. */
export interface SealerCommonOptions {
  /** Lifetime of tokens, whole seconds (default 600); `seal` can override it per token. */
  ttlSeconds?: number;
  /**
   * Who the tokens are for (e.g. a service name, at most 255 UTF-8 bytes). Sealed into every token and
   * required to match on `unseal`, so two services sharing a key cannot accept each other's tokens. No
   * audience is the same as `''`.
   */
  audience?: string;
  /** The time, epoch milliseconds (default `Date.now`). Inject it in tests. */
  clock?: () => number;
  /** Longest token accepted by `unseal` and produced by `seal`, in characters (default 65,536). */
  maxTokenBytes?: number;
}

/** Build a sealer from operator secrets: format v1, XChaCha20-Poly1305, `keys[0]` seals, every key unseals. */
export interface SealerKeyOptions extends SealerCommonOptions {
  /** Operator secrets of at least 32 bytes each, newest first; see {@link generateKey} and {@link parseKeys}. */
  keys: readonly Uint8Array[];
  codec?: never;
}

/** Build a sealer around your own cipher (a KMS, an HSM); claims are still enforced by the sealer. */
export interface SealerCodecOptions extends SealerCommonOptions {
  /** The codec that encrypts and authenticates; see {@link SealCodec}. */
  codec: SealCodec;
  keys?: never;
}

/** Options of {@link createSealer}: exactly one of `keys` or `codec`. */
export type SealerOptions = SealerKeyOptions | SealerCodecOptions;

/**
 * What a token is about (an order id, a user and a form, a request): a string (UTF-8 encoded), bytes, or the
 * {@link PreparedContext} of either, from `sealer.prepareContext`.
 */
export type SealContext = string | Uint8Array | PreparedContext;

/** Per-token options of `seal`. */
export interface SealOptions {
  /**
   * What this token is about. Its SHA-256 is sealed into the token and the same context must be passed to
   * `unseal`. Strings are UTF-8 encoded; a prepared context stands for the context it was prepared from.
   */
  context?: SealContext;
  /** Lifetime of this token, whole seconds; defaults to the sealer's `ttlSeconds`. */
  ttlSeconds?: number;
}

/** Per-token options of `unseal`. */
export interface UnsealOptions {
  /** The context the token was sealed with (or its prepared form); omitted only when it was sealed without one. */
  context?: SealContext;
}

/**
 * Seals bytes or JSON into URL-safe tokens and opens them again. The methods do not use `this`, so they can be
 * passed around on their own.
 */
export interface Sealer {
  /**
   * Encrypts and authenticates `payload` with issued-at, expiry, audience and the context digest into a
   * canonical base64url string. Each call draws a fresh random nonce, so equal inputs give unrelated tokens.
   * @throws TypeError / RangeError for wrong options, a payload that is not bytes, or a token over the limit.
   */
  seal(payload: Uint8Array, options?: SealOptions): string;
  /**
   * Verifies a token and returns its payload. `token` is untrusted input: anything that is not a valid token
   * (including non-strings) throws {@link SealError}, never another error, so one `catch` covers the wire.
   * @throws SealError with the reason; TypeError only for wrong `options`.
   */
  unseal(token: string, options?: UnsealOptions): Uint8Array;
  /** `seal` for a JSON value (`JSON.stringify`, UTF-8). @throws TypeError when the value is not JSON. */
  sealJson(value: unknown, options?: SealOptions): string;
  /**
   * `unseal` then `JSON.parse`. Returns `unknown`: validate it (e.g. with zod) before use; the token proves who
   * sealed it, not that its shape matches today's code.
   */
  unsealJson(token: string, options?: UnsealOptions): unknown;
  /**
   * Computes the digest of `context` once: the result can be passed as `context` to `seal`, `unseal` and their
   * JSON forms, with the same effect as `context` itself, any number of times (it is immutable). For code that
   * seals and unseals under one context repeatedly, such as the state of one request that is opened and then
   * sealed again. @throws TypeError when `context` is neither a string nor bytes.
   */
  prepareContext(context: string | Uint8Array): PreparedContext;
}

const utf8 = /* @__PURE__ */ new TextEncoder();
const utf8Strict = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true });

function checkLength(length: number, maxTokenBytes: number): void {
  if (length > maxTokenBytes) {
    throw new RangeError(`"payload" expected a token of at most ${maxTokenBytes} characters, got ${length}`);
  }
}

function checkContext(context: unknown): void {
  if (context === undefined || typeof context === 'string') return;
  if (PreparedContext.digestOf(context) !== undefined) return;
  expectBytes(context, 'context');
}

/** Builds a sealer on a backend; the public entries bind it to theirs. Validates every option eagerly. */
export function createSealerWith(backend: Backend, options: SealerOptions): Sealer {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`"options" expected object, got ${describe(options)}`);
  }
  const { keys, codec, ttlSeconds = DEFAULT_TTL_SECONDS, audience = '', clock = Date.now } = options;
  const { maxTokenBytes = DEFAULT_MAX_TOKEN_BYTES } = options;
  if ((keys === undefined) === (codec === undefined)) {
    throw new TypeError('"options" expected exactly one of "keys" or "codec"');
  }
  expectInteger(ttlSeconds, 'ttlSeconds', 1, MAX_TTL_SECONDS);
  expectInteger(maxTokenBytes, 'maxTokenBytes', 1, MAX_TOKEN_LIMIT);
  if (typeof audience !== 'string')
    throw new TypeError(`"audience" expected string, got ${describe(audience)}`);
  const audienceBytes = utf8.encode(audience);
  if (audienceBytes.length > MAX_AUDIENCE_BYTES) {
    throw new RangeError(
      `"audience" expected at most ${MAX_AUDIENCE_BYTES} UTF-8 bytes, got ${audienceBytes.length}`,
    );
  }
  if (typeof clock !== 'function') throw new TypeError(`"clock" expected function, got ${describe(clock)}`);
  const envelope: Envelope =
    codec === undefined ? keyRingEnvelope(createKeyRing(keys, backend), backend) : codecEnvelope(codec);

  const now = (): number => {
    const ms = clock();
    if (typeof ms !== 'number' || !Number.isFinite(ms)) {
      throw new TypeError(`"clock" expected to return epoch milliseconds, got ${describe(ms)}`);
    }
    return ms;
  };

  const digest = (context: SealContext): Uint8Array =>
    PreparedContext.digestOf(context) ??
    contextDigest(context as string | Uint8Array, backend.sha256, backend.sha256Text);

  const seal = (payload: Uint8Array, sealOptions: SealOptions = {}): string => {
    expectBytes(payload, 'payload');
    const { context, ttlSeconds: ttl = ttlSeconds } = sealOptions;
    checkContext(context);
    expectInteger(ttl, 'ttlSeconds', 1, MAX_TTL_SECONDS);
    const iat = Math.floor(now() / 1000);
    const exp = iat + ttl;
    if (iat < 0 || exp > MAX_EPOCH_SECONDS) {
      throw new RangeError(`"clock" + "ttlSeconds" expected an expiry before 2106, got epoch second ${exp}`);
    }
    const claims = encodeClaims({
      iat,
      exp,
      audience: audienceBytes,
      context: context === undefined ? undefined : digest(context),
    });
    // The built-in format's length is known up front: refuse before encrypting a payload that cannot fit.
    if (envelope.framing !== undefined) {
      checkLength(base64UrlLength(envelope.framing + claims.length + payload.length), maxTokenBytes);
    }
    const token = envelope.seal(claims, payload);
    checkLength(token.length, maxTokenBytes);
    return token;
  };

  const check = (claims: Claims, context: SealContext | undefined): void => {
    if (!equalBytes(claims.audience, audienceBytes)) throw new SealError('audience');
    if (context === undefined) {
      if (claims.context !== undefined) throw new SealError('context');
    } else if (claims.context === undefined || !equalBytes(claims.context, digest(context))) {
      throw new SealError('context');
    }
    const ms = now();
    if (ms >= claims.exp * 1000) throw new SealError('expired');
    if (claims.iat * 1000 > ms + CLOCK_SKEW_SECONDS * 1000) throw new SealError('not-yet-valid');
  };

  const unseal = (token: string, unsealOptions: UnsealOptions = {}): Uint8Array => {
    const { context } = unsealOptions;
    checkContext(context);
    if (typeof token !== 'string') throw new SealError('malformed');
    if (token.length > maxTokenBytes) throw new SealError('too-large');
    const plain = envelope.open(token);
    const parsed = decodeClaims(plain);
    if (parsed === undefined) throw new SealError('malformed');
    check(parsed.claims, context);
    return plain.subarray(parsed.payloadOffset);
  };

  return {
    seal,
    unseal,
    sealJson(value, sealOptions) {
      const text = JSON.stringify(value);
      if (text === undefined) throw new TypeError(`"value" expected a JSON value, got ${describe(value)}`);
      return seal(utf8.encode(text), sealOptions);
    },
    prepareContext(context) {
      if (typeof context !== 'string') expectBytes(context, 'context');
      return prepared(digest(context));
    },
    unsealJson(token, unsealOptions) {
      const bytes = unseal(token, unsealOptions);
      try {
        return JSON.parse(utf8Strict.decode(bytes)) as unknown;
      } catch (cause) {
        throw new SealError('malformed', { cause });
      }
    },
  };
}
