import { parseKeys } from '@boomerang/seal';
import { CliError } from './errors.js';

/** The environment variable holding the sealing key(s) both CLI processes share. */
export const STATE_KEY_ENV = 'PROVISIONER_STATE_KEY';

/** Optional: lifetime in seconds of the state `start` seals (default 600). */
export const STATE_TTL_ENV = 'PROVISIONER_STATE_TTL';

/**
 * The sealing keys from {@link STATE_KEY_ENV} (comma-separated, hex or base64url, each ≥ 32 bytes; the first
 * seals, all open). Throws {@link CliError} with what to do when it is unset or invalid.
 */
export function stateKeysFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  command: string,
): Uint8Array[] {
  const text = env[STATE_KEY_ENV];
  if (text === undefined || text.trim() === '') {
    throw new CliError(
      `${STATE_KEY_ENV} is not set. Both processes must seal and open the pending state with the same key:\n` +
        `  export ${STATE_KEY_ENV}=$(${command} keygen)`,
    );
  }
  try {
    return parseKeys(text);
  } catch (error) {
    throw new CliError(
      `${STATE_KEY_ENV} is not a valid key (${(error as Error).message}). Make one with \`${command} keygen\`.`,
      { cause: error },
    );
  }
}

/** The state lifetime from {@link STATE_TTL_ENV}, or `undefined` for the default. */
export function stateTtlFromEnv(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const text = env[STATE_TTL_ENV];
  if (text === undefined || text.trim() === '') return undefined;
  const seconds = Number(text);
  if (!Number.isSafeInteger(seconds) || seconds < 1) {
    throw new CliError(`${STATE_TTL_ENV} must be a whole number of seconds ≥ 1, got ${JSON.stringify(text)}`);
  }
  return seconds;
}

/** A key as `keygen` prints it: base64url, which {@link parseKeys} reads back. */
export function encodeKey(key: Uint8Array): string {
  return Buffer.from(key).toString('base64url');
}
