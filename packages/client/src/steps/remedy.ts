// The -32021 remedy: a server's "missing required client capability" comes back naming what this client must
// register or declare for the call, so the fix is in the error message.
import { type ClientCapabilities, ErrorCode, McpError } from '@boomerang/protocol';
import { remedyFor } from '../capabilities.js';
import { describeRequest } from '../errors.js';
import type { RoundStep } from '../middleware.js';
import type { RoundContext } from '../round-context.js';

/**
 * A round step: the server's `-32021` again as an `McpError` with its code and `data` (`cause`: the original),
 * its message naming the call and what this client lacks (the callback to register or the option to set).
 */
export function capabilityRemedy(capabilities: ClientCapabilities): RoundStep<RoundContext> {
  return async (ctx, next) => {
    try {
      return await next();
    } catch (error) {
      if (!(error instanceof McpError) || error.code !== ErrorCode.MissingRequiredClientCapability)
        throw error;
      const required = (error.data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
      const remedy = remedyFor(required, capabilities);
      throw new McpError(
        error.code,
        `${describeRequest(ctx.origin)}: ${error.message}. This client did not declare it: ${remedy} in the Client options`,
        error.data,
        { cause: error },
      );
    }
  };
}
