// The 2025-11-25 era of the client, as one adapter around the 2026-07-28 core: `dualEra` is an `Era` that probes
// the server, falls back to `initialize`, and answers the server's mid-call requests with the MRTR callbacks. The
// core never imports this folder; eras.ts plugs it in. Dropping the era is deleting this folder and that line.
import { type Era, ModernConnection, type ModernEraOptions } from '../connection.js';
import { createRequester } from '../requester.js';
import { LegacyConnection } from './connection.js';
import { initialize, probe } from './negotiate.js';
import { legacyPeerHandlers, type ServerRequestContext } from './server-requests.js';

/** Which revision a client speaks: `'auto'` probes the server; the others are fixed. */
export type ProtocolChoice = 'auto' | '2026-07-28' | '2025-11-25';

/** The options of the dual-era client. */
export interface DualEraOptions extends ModernEraOptions {
  /**
   * Which revision to speak (default `'auto'`): `'auto'` sends `server/discover` when connecting and falls back
   * to a 2025-11-25 `initialize` when the server does not answer it like a 2026-07-28 server (see the README,
   * "Two eras"); `'2026-07-28'` sends nothing; `'2025-11-25'` always initializes.
   */
  readonly protocol?: ProtocolChoice | undefined;
  /** How long `'auto'` waits for the `server/discover` answer on a stream transport (default 3000 ms). */
  readonly protocolProbeTimeoutMs?: number | undefined;
}

const PROTOCOLS: readonly ProtocolChoice[] = ['auto', '2026-07-28', '2025-11-25'];

/**
 * The dual-era {@link Era}. Throws `TypeError` for an unknown `protocol`, `RangeError` for a
 * `protocolProbeTimeoutMs` outside (0, 2^31) ms. `'auto'` waits for the probe without a probe time limit on a
 * request transport (every outcome is reported there: an OAuth sign-in may stand before the answer); the whole
 * `connect()` is still bounded by `hello.signal` (the client's `connectTimeoutMs`).
 */
export function dualEra(options: DualEraOptions = {}): Era {
  const { protocol = 'auto', protocolProbeTimeoutMs = 3000 } = options;
  if (!PROTOCOLS.includes(protocol)) {
    throw new TypeError(`"protocol" expected ${PROTOCOLS.join(' | ')}, got ${String(protocol)}`);
  }
  if (!(protocolProbeTimeoutMs > 0 && protocolProbeTimeoutMs <= 2_147_483_647)) {
    throw new RangeError(
      `"protocolProbeTimeoutMs" expected a number of milliseconds in (0, 2^31), got ${protocolProbeTimeoutMs}`,
    );
  }
  return async (transport, hello) => {
    // Until a 2025-11-25 session is initialized every server request is -32601; then the callbacks answer.
    let answering: ServerRequestContext | undefined;
    const requester = createRequester(transport, {
      ...legacyPeerHandlers(() => answering),
      onLog: hello.onLog,
    });
    try {
      if (protocol !== '2025-11-25') {
        const modern = new ModernConnection(requester, hello);
        if (protocol === '2026-07-28') return modern;
        const timeoutMs = hello.reportsEveryOutcome ? undefined : protocolProbeTimeoutMs;
        const probed = await probe(modern, timeoutMs, hello.signal);
        if (probed.modern) return probed.server === undefined ? modern : modern.describedAs(probed.server);
      }
      const connection = new LegacyConnection(requester, hello, await initialize(requester, hello));
      answering = {
        callbacks: hello.callbacks,
        capabilities: hello.capabilities,
        calls: connection.calls,
        serverInfo: connection.server.serverInfo,
        maxInFlight: hello.maxInputRequests,
      };
      return connection;
    } catch (error) {
      await requester.close();
      throw error;
    }
  };
}
