import type { ServerCapabilities } from '@boomerang/protocol';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@boomerang/protocol';
import type { ServerCore } from './dispatch.js';
import { withSubscriptions } from './listen.js';

/** The capabilities in force: with a notification source, `listChanged` / `subscribe` filled in. */
export function currentCapabilities(core: ServerCore): ServerCapabilities {
  return core.notifications === undefined ? core.capabilities : withSubscriptions(core.capabilities);
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
