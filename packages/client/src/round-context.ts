// What the client's own round steps read of a request besides what middleware see.
import type { OriginatingRequest } from './errors.js';
import type { ClientMiddlewareContext } from './middleware.js';

/** The context of one request inside the client: the middleware's, and the call as errors name it. */
export interface RoundContext extends ClientMiddlewareContext {
  /** How errors and callbacks name the call. */
  readonly origin: OriginatingRequest;
}
