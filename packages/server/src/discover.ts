import type { ServerCapabilities } from '@boomerang/protocol';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@boomerang/protocol';
import { mergeCapabilities } from './capabilities.js';
import type { ServerCore } from './core.js';
import { withSubscriptions } from './listen.js';

/**
 * The capabilities as advertised: those in force, with `listChanged` / `subscribe` filled in when there is a
 * notification source, and each registered extension under `extensions`.
 */
export function currentCapabilities(core: ServerCore): ServerCapabilities {
  const caps = core.capabilities();
  const withSources = core.notifications === undefined ? caps : withSubscriptions(caps);
  return Object.keys(core.extensions).length === 0
    ? withSources
    : mergeCapabilities(withSources, { extensions: core.extensions });
}

/**
 * The body of the built-in `server/discover` answer: supported versions, the advertised capabilities and the
 * instructions. The server finishes it like any other result (`resultType`, `ttlMs`/`cacheScope` from the
 * `cache` option, `_meta["io.modelcontextprotocol/serverInfo"]`); there is no top-level `serverInfo`.
 */
export function discoverResult(core: ServerCore): Record<string, unknown> {
  const result: Record<string, unknown> = {
    supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
    capabilities: currentCapabilities(core),
  };
  if (core.instructions !== undefined) result.instructions = core.instructions;
  return result;
}
