import type { AuthInfo } from '@boomerang/protocol';
import type { Transport } from '@boomerang/protocol/transport';
import { createInMemoryPair, type InMemoryPair } from './in-memory.js';

/** Anything that connects to a transport as a client (`Client` of `@boomerang/client`). */
export interface InMemoryClientEnd {
  connect(transport: Transport): Promise<unknown>;
}

/** Anything that serves a transport (`Server` of `@boomerang/server`, `McpServer`). */
export interface InMemoryServerEnd {
  connect(transport: Transport, options?: { auth?: AuthInfo }): unknown;
}

/** Options of {@link connectInMemory}. */
export interface ConnectInMemoryOptions {
  /** The principal the server sees on every request, as an authenticating transport would set it. */
  readonly auth?: AuthInfo;
}

/**
 * Links `client` and `server` in process: creates a pair with {@link createInMemoryPair}, connects the server to
 * one end (with `auth`, when given), then the client to the other, and returns the pair so the caller can close
 * both with `await using`. The ends are typed structurally, so this package needs neither the client nor the
 * server package. If either `connect` fails, the pair is closed and the error rethrown.
 *
 * ```ts
 * await using link = await connectInMemory(client, server);
 * const result = await client.callTool('provision', { name: 'orders' });
 * ```
 */
export async function connectInMemory(
  client: InMemoryClientEnd,
  server: InMemoryServerEnd,
  options: ConnectInMemoryOptions = {},
): Promise<InMemoryPair> {
  const pair = createInMemoryPair();
  const [clientTransport, serverTransport] = pair;
  try {
    await (options.auth === undefined
      ? server.connect(serverTransport)
      : server.connect(serverTransport, { auth: options.auth }));
    await client.connect(clientTransport);
  } catch (error) {
    await pair[Symbol.asyncDispose]();
    throw error;
  }
  return pair;
}
