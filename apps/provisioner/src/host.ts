import { Client, type ClientOptions } from '@boomerang/client';
import type { Transport } from '@boomerang/protocol/transport';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { createProvisionerServer, type ProvisionerServerOptions } from './server.js';

/** A provisioner server and a client linked in this process. */
export interface ProvisionerHost extends AsyncDisposable {
  readonly client: Client;
  /** What the server logged as warnings (e.g. `requestState rejected on tools/call: expired`), oldest first. */
  readonly serverWarnings: readonly string[];
  close(): Promise<void>;
}

/** Options of {@link hostProvisioner}. */
export interface HostOptions extends Omit<ProvisionerServerOptions, 'logger'> {
  /**
   * The client's callbacks and limits. The tool needs form elicitation declared: an `elicitation` callback
   * (automatic loop) or `capabilities: { elicitation: { form: {} } }` (manual loop).
   */
  client: ClientOptions;
  /** Wraps the client's end of the link, e.g. with `tapTransport` to watch the rounds. */
  wrapTransport?: (transport: Transport) => Transport;
}

/**
 * Starts a provisioner server and connects a client to it over the in-memory pair. Both CLI processes do this:
 * each hosts the same server, and the sealed `requestState` (same key) is what makes the second process's
 * retry trustworthy. The server's warnings are collected instead of printed, so the CLI can explain rejections.
 */
export async function hostProvisioner(options: HostOptions): Promise<ProvisionerHost> {
  const serverWarnings: string[] = [];
  const { client: clientOptions, wrapTransport, ...serverOptions } = options;
  const server = createProvisionerServer({
    ...serverOptions,
    logger: {
      warn: (message) => serverWarnings.push(message),
      error: (message) => serverWarnings.push(message),
    },
  });
  const [clientTransport, serverTransport] = createInMemoryPair();
  const connection = await server.connect(serverTransport);
  const client = new Client({ name: 'provisioner-client', version: '1.0.0' }, clientOptions);
  try {
    await client.connect(wrapTransport === undefined ? clientTransport : wrapTransport(clientTransport));
  } catch (error) {
    await connection.close();
    throw error;
  }
  const close = async () => {
    await client.close();
    await connection.close();
  };
  return { client, serverWarnings, close, [Symbol.asyncDispose]: close };
}
