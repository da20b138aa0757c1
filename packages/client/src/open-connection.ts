// Opening a connection: the era decides what the server speaks, within `connectTimeoutMs`. A request transport
// (HTTP) is used as is; a stream transport through the correlator, which pairs responses with requests by id.
import type { ClientCapabilities, Implementation } from '@boomerang/protocol';
import { isRequestTransport, type RequestTransport, type Transport } from '@boomerang/protocol/transport';
import type { Connection } from './connection.js';
import { correlate } from './correlator.js';
import { connectTimedOut } from './errors.js';
import type { ClientSettings } from './options.js';

/**
 * Opens a connection on `transport` with the client's era (option `protocol`), or rejects: what `initialize`
 * failed with, or a `timeout` `ClientError` (`method: 'connect'`) past `connectTimeoutMs` (the transport is then
 * closed by the era).
 */
export async function openConnection(
  transport: Transport | RequestTransport,
  settings: ClientSettings,
  info: Implementation,
  capabilities: ClientCapabilities,
): Promise<Connection> {
  const { connectTimeoutMs, callbacks, maxInputRequests } = settings;
  const limit = connectTimeoutMs === undefined ? undefined : new AbortController();
  const timer =
    limit === undefined
      ? undefined
      : setTimeout(() => limit.abort(connectTimedOut(connectTimeoutMs as number)), connectTimeoutMs);
  try {
    const reportsEveryOutcome = isRequestTransport(transport);
    return await settings.era(reportsEveryOutcome ? transport : correlate(transport), {
      info,
      capabilities,
      callbacks,
      reportsEveryOutcome,
      signal: limit?.signal,
      maxInputRequests,
      onLog: settings.onLog,
      logLevel: settings.logLevel,
    });
  } finally {
    clearTimeout(timer);
  }
}
