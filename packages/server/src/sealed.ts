import { type AuthInfo, argumentError, principalOf } from '@boomerang/protocol';
import { canonicalJson, createSealer, type SealCodec, type SealContext } from '@boomerang/seal';

/**
 * The request a `requestState` belongs to. State minted for one binding opens only under an equal binding:
 * same method, same tool/prompt name or resource URI, same arguments (compared as canonical JSON, so key order
 * does not matter) and, when principal binding is on, the same authenticated principal.
 */
export interface RequestStateBinding {
  /** `"tools/call"`, `"prompts/get"` or `"resources/read"`. */
  readonly method: string;
  /** The tool or prompt `name`, or the resource `uri`. */
  readonly target: string;
  /** The tool or prompt `arguments` (`undefined` and `{}` bind alike); `undefined` for `resources/read`. */
  readonly arguments: Readonly<Record<string, unknown>> | undefined;
  /** The authenticated principal; only `clientId`, `issuer` and `subject` are bound, never scopes. */
  readonly auth: AuthInfo | undefined;
}

/**
 * What the server seals beside a handler's state and reads back on the next round: which round minted it, and
 * what middleware carried (`ctx.carry`, e.g. the trace context of the round that minted it).
 */
export interface StateFrame {
  /** The round that minted the state: `0` for a first round. */
  readonly round: number;
  /** Strings middleware carried to the next round (`{}` for none). */
  readonly carried: Readonly<Record<string, string>>;
}

/** What {@link RequestStateEnvelope.open} may return besides the bare state: the state and its frame. */
export interface OpenedState {
  readonly state: string;
  readonly frame: StateFrame;
}

/**
 * The MCP request-state envelope: turns a handler's plaintext state into the opaque token the client echoes,
 * and back. `open` must throw for anything `seal` did not mint for an equal binding; the server turns every
 * rejection into the one wire error `{"code":-32602,"message":"Invalid or expired requestState"}` and reports
 * the thrown error's `reason` (a `SealError`'s) or `message` to its logger only. Build one with {@link sealed},
 * or implement it yourself; both methods may return a promise. An envelope that keeps the `frame` `seal` is given
 * returns it from `open` ({@link OpenedState}); one that returns the bare string only loses the exact round
 * number and what middleware carried (middleware then sees `round: 1` for any retry).
 */
export interface RequestStateEnvelope {
  /** Seals `state` (and, when the envelope keeps it, `frame`) for the request described by `binding`. */
  seal(state: string, binding: RequestStateBinding, frame?: StateFrame): string | Promise<string>;
  /** Opens a token presented on the request described by `binding`, or throws. */
  open(token: string, binding: RequestStateBinding): string | OpenedState | Promise<string | OpenedState>;
  /**
   * `true` when `open` never returns a promise (as {@link sealed}'s envelope): with middleware, the server then
   * opens a request's state only once a middleware reads the round or the request reaches its handler, so a
   * middleware that refuses the request first (a rate limit) spares the unsealing. Otherwise the state is opened
   * before the first middleware runs.
   */
  readonly synchronous?: boolean;
}

/**
 * Names the principal a `requestState` is bound to, for {@link sealed}'s `bindPrincipal`: a string, or
 * `undefined`/`null` for none. Throwing (or returning another type) fails the request closed.
 */
export type PrincipalBinder = (binding: RequestStateBinding) => string | null | undefined;

/** Options of {@link sealed} shared by both key sources. */
interface SealedCommonOptions {
  /** Lifetime of one round's state, whole seconds. Default 600. Every round is resealed with a fresh expiry. */
  ttlSeconds?: number;
  /**
   * Names the service the state is for (≤ 255 UTF-8 bytes); state sealed for another audience is rejected.
   * Set it whenever several services share keys. Default: none (the same as `''`).
   */
  audience?: string;
  /**
   * Bind state to the authenticated principal (`auth.clientId`, `auth.issuer`, `auth.subject`; never scopes,
   * so a scope step-up keeps rounds in flight working). Default `true`: state minted for one user is rejected
   * for another, and state minted without authentication is rejected with it (and vice versa). Turn it off
   * only when the principal legitimately changes between rounds. An `auth` that names none of the three binds
   * to its `token` (the context keeps only a digest of it; a refreshed token is another principal), and one
   * without a token either fails closed: nothing is sealed for it (`-32603`) and nothing opens (`-32602`).
   *
   * A function names the principal itself (a tenant, a session of your own): it receives the binding and
   * returns a string, or `undefined`/`null` for "no principal". It runs on every seal and every open; when it
   * throws or returns anything else, the request fails closed (`-32603` when sealing, the frozen `-32602`
   * when opening), so state is never minted or accepted unbound.
   */
  bindPrincipal?: boolean | PrincipalBinder;
  /** The time in epoch milliseconds; for tests. Default `Date.now`. */
  clock?: () => number;
}

/**
 * Options of {@link sealed}: operator `keys` (`keys[0]` seals, every key opens: rotate `[old, new]` →
 * `[new, old]` → `[new]`, each step fully rolled out before the next), or your own `codec` (a KMS, an HSM),
 * around which expiry, audience and binding are still enforced.
 */
export type SealedOptions = SealedCommonOptions &
  (
    | {
        /** Secrets of ≥ 32 bytes, newest first (`generateKey()`, `parseKeys(env)`). */ keys: readonly Uint8Array[];
        codec?: never;
      }
    | { /** Your cipher; see `SealCodec` in `@boomerang/seal`. */ codec: SealCodec; keys?: never }
  );

/**
 * The one MCP request-state envelope, built on `@boomerang/seal`: authenticated encryption (the client learns
 * nothing from the token), expiry, optional audience, and binding to the originating request. Opt in with one
 * line: `new Server(info, { requestState: sealed({ keys: parseKeys(process.env.STATE_KEYS!) }), ... })`.
 *
 * Wire format: a `@boomerang/seal` token (canonical base64url) whose payload is one tag byte and the handler's
 * state: `0x00` + its UTF-8 bytes (the state is encoded once, whatever it holds), or, for a string that is not
 * well-formed UTF-16 (a lone surrogate), `0x01` + the UTF-8 of its JSON string form, so that every JavaScript
 * string round-trips exactly. A state minted by a round after the first, or with something middleware carried,
 * has a frame: tag `0x02` (or `0x03` for the JSON string form), the round as 4 bytes big-endian, the length of
 * the carried JSON object as 2 bytes big-endian, that object's UTF-8, then the state as above. A payload without
 * a frame opens as round 0 with nothing carried. The seal's context is
 *
 *     canonicalJson(["mcp/request-state/v2", method, target, arguments ?? {}, principal])
 *
 * `principal` is `principalOf(auth)` of `@boomerang/protocol`: `[clientId, issuer, subject]` (`null` for each absent
 * member), or `{"token": token}` for an `auth` that names none of them but carries a token, or `null` without
 * `auth` or with `bindPrincipal: false`; or the string a `bindPrincipal` function returned. An `auth` with neither
 * an identity nor a token throws `TypeError` (fail closed). Canonical JSON sorts object keys at every depth. The seal stores only the SHA-256 of
 * the context, inside the encrypted claims: the binding is checked, never carried, so a token presented for
 * another tool, other arguments, another URI, another method or another principal fails with reason `context`.
 *
 * Throws `TypeError`/`RangeError` at construction for bad keys or options (from `createSealer`); `seal` throws
 * `TypeError` for a non-string state; `open` throws `SealError` (or `TypeError` for a payload it did not write).
 */
export function sealed(options: SealedOptions): RequestStateEnvelope {
  if (typeof options !== 'object' || options === null) throw argumentError('options', 'an object', options);
  const { bindPrincipal = true, ttlSeconds = 600, keys, codec, audience, clock } = options;
  if (typeof bindPrincipal !== 'boolean' && typeof bindPrincipal !== 'function') {
    throw argumentError('bindPrincipal', 'boolean or function', bindPrincipal);
  }
  const common = {
    ttlSeconds,
    ...(audience === undefined ? {} : { audience }),
    ...(clock === undefined ? {} : { clock }),
  };
  const sealer = createSealer(
    codec === undefined ? { ...common, keys: keys as readonly Uint8Array[] } : { ...common, codec },
  );
  // One request opens and seals under the same binding object: its context is written and hashed once. A
  // `bindPrincipal` function runs on every seal and open, as documented, so its contexts are never memoised.
  // Nothing is remembered across requests: a digest cache shared by all callers would time whether somebody
  // else recently used the same tool with the same arguments.
  const contexts = new WeakMap<RequestStateBinding, SealContext>();
  const contextOf = (binding: RequestStateBinding): SealContext => {
    if (typeof bindPrincipal === 'function') return bindingContext(binding, bindPrincipal);
    let context = contexts.get(binding);
    if (context === undefined) {
      context = sealer.prepareContext(bindingContext(binding, bindPrincipal));
      contexts.set(binding, context);
    }
    return context;
  };
  return {
    synchronous: true,
    seal(state, binding, frame) {
      if (typeof state !== 'string') throw argumentError('state', 'string', state);
      return sealer.seal(encodeState(state, frame), { context: contextOf(binding) });
    },
    open(token, binding) {
      return decodeState(sealer.unseal(token, { context: contextOf(binding) }));
    },
  };
}

/** The first member of every binding context: the envelope's format, so another format never opens. */
const CONTEXT_TAG = 'mcp/request-state/v2';

/**
 * Payload tags: the state as UTF-8, or (lone surrogates) the UTF-8 of its JSON string form; the same two after
 * a frame (round and carried strings).
 */
const RAW = 0;
const ESCAPED = 1;
const FRAMED_RAW = 2;
const FRAMED_ESCAPED = 3;
/** Bytes of a frame before its carried JSON: the round (u32) and the JSON's length (u16). */
const FRAME_HEADER = 6;

/** A lone surrogate: the one thing UTF-8 cannot carry (paired surrogates form one code point and never match). */
const LONE_SURROGATE = /\p{Cs}/u;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const NO_FRAME: StateFrame = Object.freeze({ round: 0, carried: Object.freeze({}) });

/** The payload of `state` (see {@link sealed}'s wire format): a frame only when it says more than round 0. */
function encodeState(state: string, frame: StateFrame | undefined): Uint8Array {
  const escaped = LONE_SURROGATE.test(state);
  const text = escaped ? JSON.stringify(state) : state;
  const carried = frame === undefined || isEmpty(frame.carried) ? undefined : JSON.stringify(frame.carried);
  const framed = frame !== undefined && (frame.round > 0 || carried !== undefined);
  const head = framed ? encoder.encode(carried ?? '{}') : undefined;
  const offset = head === undefined ? 1 : 1 + FRAME_HEADER + head.length;
  // At most three UTF-8 bytes per UTF-16 unit, after the tag (and the frame).
  const bytes = new Uint8Array(text.length * 3 + offset);
  if (head === undefined) {
    bytes[0] = escaped ? ESCAPED : RAW;
  } else {
    if (head.length > 0xffff) throw new RangeError('the carried strings are too long to seal');
    bytes[0] = escaped ? FRAMED_ESCAPED : FRAMED_RAW;
    const view = new DataView(bytes.buffer);
    view.setUint32(1, (frame as StateFrame).round >>> 0);
    view.setUint16(5, head.length);
    bytes.set(head, 1 + FRAME_HEADER);
  }
  const { written } = encoder.encodeInto(text, bytes.subarray(offset));
  return bytes.subarray(0, written + offset);
}

/** The state in a payload (with its frame); throws `TypeError` for one that {@link encodeState} did not write. */
function decodeState(payload: Uint8Array): string | OpenedState {
  const tag = payload[0];
  if (tag === RAW || tag === ESCAPED) return decodeText(payload.subarray(1), tag === ESCAPED);
  if (tag !== FRAMED_RAW && tag !== FRAMED_ESCAPED) {
    throw new TypeError('the sealed payload has an unknown format (malformed)');
  }
  if (payload.length < 1 + FRAME_HEADER) throw new TypeError('the sealed payload is truncated (malformed)');
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const round = view.getUint32(1);
  const end = 1 + FRAME_HEADER + view.getUint16(5);
  if (end > payload.length) throw new TypeError('the sealed payload is truncated (malformed)');
  const carried: unknown = JSON.parse(decodeText(payload.subarray(1 + FRAME_HEADER, end), false));
  if (!isStringRecord(carried)) throw new TypeError('the sealed frame is malformed');
  return { state: decodeText(payload.subarray(end), tag === FRAMED_ESCAPED), frame: { round, carried } };
}

function decodeText(bytes: Uint8Array, escaped: boolean): string {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new TypeError('the sealed payload is not UTF-8 (malformed)');
  }
  if (!escaped) return text;
  const value: unknown = JSON.parse(text);
  if (typeof value === 'string') return value;
  throw new TypeError('the sealed payload has an unknown format (malformed)');
}

function isEmpty(record: Readonly<Record<string, string>>): boolean {
  for (const _ in record) return false;
  return true;
}

function isStringRecord(value: unknown): value is Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const member of Object.values(value)) if (typeof member !== 'string') return false;
  return true;
}

/** The frame of what an envelope's `open` returned: its own, or round 0 with nothing carried. */
export function frameOf(opened: string | OpenedState): StateFrame {
  return typeof opened === 'string' ? NO_FRAME : opened.frame;
}

/** The seal context for `binding` (see {@link sealed} for the exact format). */
export function bindingContext(
  binding: RequestStateBinding,
  bindPrincipal: boolean | PrincipalBinder,
): string {
  const { method, target } = binding;
  const args = binding.arguments ?? {};
  return canonicalJson([CONTEXT_TAG, method, target, args, boundPrincipal(binding, bindPrincipal)]);
}

/**
 * The principal member of the context: `principalOf(auth)` (default), a binder's string, or `null`. A binder's
 * string, the default tuple and the token object are different JSON types, so they can never collide.
 */
function boundPrincipal(binding: RequestStateBinding, bindPrincipal: boolean | PrincipalBinder): unknown {
  if (typeof bindPrincipal === 'function') {
    const principal: unknown = bindPrincipal(binding);
    if (principal === undefined || principal === null) return null;
    if (typeof principal !== 'string') {
      throw new TypeError(`"bindPrincipal" returned ${typeof principal}, expected string or undefined`);
    }
    return principal;
  }
  if (!bindPrincipal) return null;
  const principal = principalOf(binding.auth);
  if (principal === undefined) {
    throw new TypeError(
      'requestState cannot be bound: the AuthInfo names no clientId, issuer, subject or token (fail closed)',
    );
  }
  return principal;
}
