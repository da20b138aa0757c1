// The MCP servers the inbox calls, by name. A flow stores the name, not the URL, so a server that moves keeps its
// flows; a flow naming a server the inbox does not know fails instead of reaching somewhere the store says.
import { Client } from '@boomerang/client';
import type { ClientCapabilities, Root } from '@boomerang/protocol';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';

/** What every inbox client tells the servers it can answer (a person answers, later, on the page). */
export function inboxCapabilities(roots: readonly Root[]): ClientCapabilities {
  return {
    elicitation: { form: {}, url: {} },
    sampling: {},
    ...(roots.length > 0 ? { roots: {} } : {}),
  };
}

/** Connected clients, one per configured server, made on first use and shared by every caller. */
export interface Connections {
  /** The configured servers: name → MCP endpoint URL. */
  readonly servers: Readonly<Record<string, string>>;
  /** The connected client of server `name`; throws for a name that is not configured or a failed connect. */
  client(name: string): Promise<Client>;
  /** Closes every client. */
  close(): Promise<void>;
}

/** Options of {@link createConnections}. */
export interface ConnectionsOptions {
  /** The roots a person may share (declares the `roots` capability when there is one). */
  readonly roots?: readonly Root[];
  /** Who the inbox says it is (`clientInfo`). */
  readonly name?: string;
}

/**
 * Clients for `servers` (name → `http(s)://…/mcp`), over Streamable HTTP: every request is its own exchange, so
 * one client serves every worker call and resume concurrently. They declare what a person can answer on the
 * page (forms, URLs, completions, and roots when some are configured) and have no callbacks: every question
 * goes to the store through `client.start()` / `client.resume()`. A connect that fails is tried again by the
 * next caller. Throws `TypeError` for a server URL that is not http(s).
 */
export function createConnections(
  servers: Readonly<Record<string, string>>,
  options: ConnectionsOptions = {},
): Connections {
  for (const [name, url] of Object.entries(servers)) {
    if (!/^https?:\/\//.test(url))
      throw new TypeError(`server "${name}" expected an http(s) URL, got ${url}`);
  }
  const capabilities = inboxCapabilities(options.roots ?? []);
  const info = { name: options.name ?? 'boomerang-inbox', version: '1.0.0' };
  const clients = new Map<string, Promise<Client>>();
  return {
    servers,
    client(name) {
      const url = Object.hasOwn(servers, name) ? servers[name] : undefined;
      if (url === undefined) {
        return Promise.reject(new Error(`The inbox has no MCP server named "${name}".`));
      }
      let connected = clients.get(name);
      if (connected === undefined) {
        connected = (async () => {
          const client = new Client(info, { capabilities, protocol: '2026-07-28' });
          await client.connect(new StreamableHttpClientTransport(url));
          return client;
        })();
        clients.set(name, connected);
        connected.catch(() => clients.delete(name));
      }
      return connected;
    },
    async close() {
      const all = [...clients.values()];
      clients.clear();
      await Promise.all(all.map(async (c) => (await c.catch(() => undefined))?.close()));
    },
  };
}
