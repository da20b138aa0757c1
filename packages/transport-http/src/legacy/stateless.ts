// Stateless 2025-11-25 (`legacy: { sessions: false }`): every request on its own, no session ids, no
// back-channel.
import type { AuthInfo, JSONRPCRequest } from '@boomerang/protocol';
import type { Exchange } from '../exchange.js';
import { HeaderName } from '../headers.js';
import type { EndpointEra } from '../inbound.js';
import { type Reply, refuse, statusOf } from '../replies.js';
import { isInitialize, LEGACY_VERSIONS } from './messages.js';
import { type Connectable, HttpSession, withStatus } from './session.js';

/**
 * The stateless 2025-11-25 era step (the endpoint hands it no 2026-07-28 POST): `initialize` is answered
 * without a session id; a later request (known by its 2025-11-25-era `MCP-Protocol-Version`, or by having none,
 * which the spec reads as 2025-03-26) is served on a connection of its own, opened with an `initialize` in the
 * client's place; notifications and responses are accepted (202) and dropped. The server has nobody to ask: a
 * server→client request fails at once with `NO_BACK_CHANNEL`, and session state (log level, subscriptions) ends
 * with each request. Anything but a POST, and a POST naming a session, go on to `next`.
 */
export function statelessStep(handler: Connectable, onError: (error: unknown) => void): EndpointEra {
  return {
    async serve(inbound, next) {
      const { exchange } = inbound;
      if (exchange.method !== 'POST' || exchange.headers.get(HeaderName.session) !== null)
        return next(inbound);
      const received = await inbound.receive();
      if (!received.ok) return next(inbound);
      const { message, kind, auth } = received;
      const version = exchange.headers.get(HeaderName.protocolVersion);
      if (!isInitialize(message) && version !== null && !LEGACY_VERSIONS.has(version)) return next(inbound);
      if (kind !== 'request') return { status: 202, headers: {}, body: null };
      return serveAlone(handler, message as JSONRPCRequest, exchange, auth, onError);
    },
    close: async () => {},
  };
}

/** Everything a client may declare: the stateless server cannot know what it did, and cannot ask anyway. */
const ANY_CLIENT = { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} };

/** One stateless request on a connection of its own (see {@link statelessStep}). */
async function serveAlone(
  handler: Connectable,
  message: JSONRPCRequest,
  exchange: Exchange,
  auth: AuthInfo | undefined,
  onError: (error: unknown) => void,
): Promise<Reply> {
  const init = { id: '', auth, idleMs: 60_000, forget: () => {}, onError, backChannel: false };
  const session = new HttpSession(init);
  try {
    await session.start(handler, auth);
  } catch (error) {
    onError(error);
    await session.end();
    return refuse(500, 'Internal error');
  }
  if (!isInitialize(message)) {
    const hello = {
      jsonrpc: '2.0' as const,
      id: 'stateless-initialize',
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: ANY_CLIENT,
        clientInfo: { name: 'stateless 2025-11-25 client', version: '0' },
      },
    };
    const { reply, ok } = await session.initialize(hello, exchange, auth);
    if (!ok) return reply; // the handler refuses 2025-11-25 (legacy: false on the server)
  }
  const pending = session.request(message, exchange, auth);
  void pending.done.then(() => session.end());
  const reply = await pending.reply;
  const { response } = pending;
  return isInitialize(message) && response !== undefined && !('result' in response)
    ? withStatus(reply, statusOf(response))
    : reply;
}
