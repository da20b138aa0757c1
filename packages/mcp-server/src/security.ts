import { argumentError } from '@boomerang/protocol';
import { generateKey } from '@boomerang/seal';
import { type RequestStateEnvelope, type SealedOptions, sealed } from '@boomerang/server';
import type { RequestStateSecurity } from './types.js';

const OPTION_NAMES: ReadonlySet<string> = new Set([
  'keys',
  'codec',
  'ttlSeconds',
  'bindPrincipal',
  'audience',
  'clock',
]);

/**
 * The request-state envelope of one `McpServer`: the low-level server's `sealed()` (no second format).
 *
 * - No policy: a random key made for this instance, audience = the server name.
 * - A policy: its `keys` or `codec` (neither: a random key), audience = `audience` or else the server name. An
 *   explicit policy on a nameless server (`name: ''`) without an `audience` throws `TypeError`: every unnamed
 *   server would stamp the same empty audience, so state minted by another service sharing the keys would open.
 */
export function requestStateEnvelope(
  serverName: string,
  policy: RequestStateSecurity | undefined,
): RequestStateEnvelope {
  if (policy === undefined) return sealed({ keys: [generateKey()], audience: serverName });
  if (typeof policy !== 'object' || policy === null) {
    throw argumentError('requestStateSecurity', 'an object', policy);
  }
  for (const name of Object.keys(policy)) {
    if (!OPTION_NAMES.has(name)) throw new TypeError(`unknown "requestStateSecurity" option "${name}"`);
  }
  const { keys, codec, audience, ttlSeconds, bindPrincipal, clock } = policy;
  if (keys !== undefined && codec !== undefined) {
    throw new TypeError('"requestStateSecurity" takes one of "keys" or "codec", not both');
  }
  if (audience === undefined && serverName === '') {
    throw new TypeError(
      '"requestStateSecurity" is set but the server has no name: sealed requestState carries the server name ' +
        "as its audience, so unnamed servers sharing keys would accept each other's state. Name the server " +
        'or set requestStateSecurity.audience.',
    );
  }
  const common = {
    audience: audience ?? serverName,
    ...(ttlSeconds === undefined ? {} : { ttlSeconds }),
    ...(bindPrincipal === undefined ? {} : { bindPrincipal }),
    ...(clock === undefined ? {} : { clock }),
  };
  const options: SealedOptions =
    codec === undefined ? { ...common, keys: keys ?? [generateKey()] } : { ...common, codec };
  return sealed(options);
}
