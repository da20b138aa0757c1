import { isBytes } from './bytes.js';

/**
 * Why a token was refused, in the order the checks run. For logs and metrics only: a service that answers on a
 * wire should show one fixed message for every reason, so that a caller learns nothing by probing.
 *
 * - `too-large`: longer than `maxTokenBytes`; refused before any decoding work.
 * - `malformed`: not a string, not canonical base64url, too short, another format version, or claims that do
 *   not parse.
 * - `unknown-key`: well formed, but its key id matches no key of the ring (retired key, other service).
 * - `forged`: the authentication tag does not verify (tampered, truncated, wrong key), or a user codec threw.
 * - `audience`: sealed for another audience.
 * - `context`: sealed for another context (or with a context where none was given, and vice versa).
 * - `expired`: its expiry has passed.
 * - `not-yet-valid`: issued further in the future than the clock-skew allowance.
 */
export const SEAL_ERROR_REASONS = [
  'too-large',
  'malformed',
  'unknown-key',
  'forged',
  'audience',
  'context',
  'expired',
  'not-yet-valid',
] as const;

/** One of {@link SEAL_ERROR_REASONS}. */
export type SealErrorReason = (typeof SEAL_ERROR_REASONS)[number];

/**
 * The one error `unseal` throws for a token it refuses. `reason` says why (see {@link SealErrorReason});
 * `cause` carries a user codec's own error. The message is fixed per reason and never contains token bytes.
 */
export class SealError extends Error {
  override readonly name = 'SealError';
  /** Why the token was refused. */
  readonly reason: SealErrorReason;

  constructor(reason: SealErrorReason, options?: { cause?: unknown }) {
    super(`sealed token rejected: ${reason}`, options);
    this.reason = reason;
  }
}

/** Throws the noble-style `TypeError` / `RangeError` for a value that is not bytes of at least `min` length. */
export function expectBytes(value: unknown, title: string, min = 0): asserts value is Uint8Array {
  if (!isBytes(value)) {
    throw new TypeError(`"${title}" expected Uint8Array, got ${describe(value)}`);
  }
  if (value.length < min) {
    throw new RangeError(`"${title}" expected Uint8Array of length ≥ ${min}, got ${value.length}`);
  }
}

/** Throws `TypeError` unless `value` is an integer, `RangeError` unless it lies in `[min, max]`. */
export function expectInteger(
  value: unknown,
  title: string,
  min: number,
  max: number,
): asserts value is number {
  if (typeof value !== 'number') throw new TypeError(`"${title}" expected integer, got ${describe(value)}`);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`"${title}" expected integer in [${min}, ${max}], got ${value}`);
  }
}

/** A short, value-free description of what was passed, for error messages (never echoes secrets). */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (ArrayBuffer.isView(value)) return value.constructor.name;
  return typeof value;
}
