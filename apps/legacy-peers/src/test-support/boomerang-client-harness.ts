// What every Boomerang-client test needs: a v1 server started through the transport variant's factory, a
// Boomerang Client connected to it through a wire tap, and the cleanup that closes both and checks that the
// server is gone.
import { Client, type ClientOptions, type InputRequestContext } from '@boomerang/client';
import type { CallToolResult } from '@boomerang/protocol';
import type { RequestTransport, Transport } from '@boomerang/protocol/transport';
import { afterEach, beforeAll, type TestContext } from 'vitest';
import { tapBoomerang, Wire } from './wire.js';

/** A running v1 server (src/fixtures/v1-server.mjs), as one transport kind reaches it. */
export interface V1Peer {
  /** A Boomerang transport to the server (`client.connect` uses it): a stream (stdio) or request (HTTP) one. */
  readonly transport: Transport | RequestTransport;
  /** What the server logged so far (stderr of a child process). */
  serverLog(): string;
  /** Resolves once the server (its process) is gone, after the client closed; rejects when it lingers. */
  stopped(): Promise<void>;
}

/** What a transport variant hands the suite. */
export interface V1PeerFactory {
  /** Resolves to why the peers cannot run here, or `undefined` when they can. */
  prepare?(): Promise<string | undefined>;
  /** Starts one server for one test. */
  start(): Promise<V1Peer>;
  /** The error code the v1 server refuses the `server/discover` probe with (default -32601, its stdio answer). */
  readonly probeRefusal?: number;
}

/** What the callbacks were asked, in order. */
export type Seen = { method: string; params: unknown; ctx: InputRequestContext }[];

/** The roots the Boomerang client answers with. */
export const ROOTS = [
  { uri: 'file:///work/app', name: 'app' },
  { uri: 'file:///work/docs', name: 'docs' },
];

/** The callbacks a test gets when it does not say otherwise; each records what it was asked in `seen`. */
export function defaultCallbacks(seen: Seen): ClientOptions {
  return {
    elicitation: (params, ctx) => {
      seen.push({ method: 'elicitation/create', params, ctx });
      return { action: 'accept', content: { guests: 2, name: 'Grace' } };
    },
    sampling: (params, ctx) => {
      seen.push({ method: 'sampling/createMessage', params, ctx });
      return {
        role: 'assistant',
        content: { type: 'text', text: 'A short line.' },
        model: 'boomerang-model',
      };
    },
    roots: (ctx) => {
      seen.push({ method: 'roots/list', params: undefined, ctx });
      return { roots: ROOTS };
    },
  };
}

/** The text of the first content block. */
export function firstText(result: CallToolResult): string | undefined {
  const [block] = result.content;
  return block?.type === 'text' ? block.text : undefined;
}

/** A connected Boomerang client, its server, the wire between them and what the callbacks were asked. */
export interface BoomerangConnection {
  readonly client: Client;
  readonly peer: V1Peer;
  readonly wire: Wire;
  readonly seen: Seen;
}

/** Connects one Boomerang client per call; `options` builds its options (default {@link defaultCallbacks}). */
export type ConnectBoomerang = (
  ctx: TestContext,
  options?: (seen: Seen) => ClientOptions,
) => Promise<BoomerangConnection>;

/**
 * Installs the suite's hooks (call it inside a `describe`) and returns `connect`: it starts a server, connects a
 * Boomerang client, and registers both for the `afterEach` that closes them and waits until the server is gone.
 * Skips the test when the factory's `prepare` said the peers cannot run.
 */
export function useBoomerangClients(factory: V1PeerFactory): ConnectBoomerang {
  let unavailable: string | undefined;
  const running: { client: Client; peer: V1Peer }[] = [];

  beforeAll(async () => {
    unavailable = await factory.prepare?.();
  }, 300_000);

  afterEach(async () => {
    const stopping = running.splice(0);
    for (const { client, peer } of stopping) {
      await client.close();
      await peer.transport.close(); // also when connect never got that far
    }
    for (const { peer } of stopping) await peer.stopped();
  });

  return async (ctx, options = defaultCallbacks) => {
    if (unavailable !== undefined) ctx.skip(unavailable);
    const peer = await factory.start();
    const seen: Seen = [];
    const client = new Client({ name: 'boomerang-host', version: '1.0.0' }, options(seen));
    running.push({ client, peer });
    const wire = new Wire();
    await client.connect(tapBoomerang(peer.transport, wire));
    return { client, peer, wire, seen };
  };
}
