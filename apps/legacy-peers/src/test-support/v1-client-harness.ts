// What every v1-client test needs: a Boomerang server started through the transport variant's factory, an
// official v1 Client connected to it through a wire tap, and the cleanup that closes both and checks that the
// server is gone.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport as V1Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type ClientCapabilities,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type ElicitResult,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeAll, expect, type TestContext } from 'vitest';
import { tapV1, Wire } from './wire.js';

/** A running Boomerang server (src/fixtures/boomerang-server.mjs), as one transport kind reaches it. */
export interface BoomerangPeer {
  /** A v1 transport to the server, not started yet (`client.connect` starts it). */
  readonly transport: V1Transport;
  /** What the server logged so far (stderr of a child process). */
  serverLog(): string;
  /** Resolves once the server (its process) is gone, after the client closed; rejects when it lingers. */
  stopped(): Promise<void>;
}

/** The options of `createBoomerangServer` a test may set. */
export interface BoomerangServerOptions {
  /** How long one server→client request waits (the server's default: 60 s). */
  readonly requestTimeoutMs?: number;
}

/** What a transport variant hands the suite. */
export interface BoomerangPeerFactory {
  /** Resolves to why the peers cannot run here (e.g. no build), or `undefined` when they can. */
  prepare?(): Promise<string | undefined>;
  /** Starts one server for one test. */
  start(options?: BoomerangServerOptions): Promise<BoomerangPeer>;
}

/** An elicitation handler of the v1 client; `signal` aborts when the server cancels the question. */
export type ElicitHandler = (
  params: Record<string, unknown>,
  signal: AbortSignal,
) => ElicitResult | Promise<ElicitResult>;

/** How a test's v1 client is set up. */
export interface V1ClientSetup {
  /** Declared at `initialize` (default {@link ALL}). */
  readonly capabilities?: ClientCapabilities;
  /** Registered only when given (default: {@link accept}); needs `elicitation` in `capabilities`. */
  readonly elicit?: ElicitHandler | undefined;
  /** Answer `sampling/createMessage` (default: when `capabilities` declares `sampling`). */
  readonly sample?: boolean;
  /** Answer `roots/list` (default: when `capabilities` declares `roots`). */
  readonly roots?: boolean;
  /** The v1 client's `enforceStrictCapabilities` (default true: it refuses what the server did not advertise). */
  readonly strict?: boolean;
  readonly server?: BoomerangServerOptions;
}

/** Everything a client declares: elicitation (form, as 2025-11-25's `{}` means), sampling, roots. */
export const ALL: ClientCapabilities = { elicitation: {}, sampling: {}, roots: {} };
/** The elicitation answer of `reserve` when a test does not say otherwise. */
export const accept = (): ElicitResult => ({ action: 'accept', content: { guests: 4, name: 'Ada' } });
/** The roots the v1 client answers with. */
export const ROOTS = [
  { uri: 'file:///work/app', name: 'app' },
  { uri: 'file:///work/docs', name: 'docs' },
];

/** The text of the first content block of a v1 result. */
export function firstText(result: object): string | undefined {
  const [block] = ((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[];
  return block?.type === 'text' ? block.text : undefined;
}

/** A promise and the function that resolves it (Node 20 has no `Promise.withResolvers`). */
export function signalled(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * What the v1 HTTP client reports when `close()` aborts its own requests: the session's GET stream (opening, or
 * open), or the POST of an answer whose 202 had not come back yet (the server had already read it: the call
 * that asked was answered before the test closed the client).
 */
const ownAbort =
  /^(?:Error: (?:SSE stream disconnected|Failed to send response): )?AbortError: This operation was aborted$/;

/** Connects one v1 client per call; see {@link useV1Clients}. */
export type ConnectV1 = (ctx: TestContext, setup?: V1ClientSetup) => Promise<V1Connection>;

/** A connected v1 client, its server, the wire between them and what the client's handlers saw. */
export interface V1Connection {
  readonly client: Client;
  readonly peer: BoomerangPeer;
  readonly wire: Wire;
  readonly questions: Record<string, unknown>[];
  readonly samples: Record<string, unknown>[];
  readonly logs: Record<string, unknown>[];
  /** What the v1 client reported through `onerror` (unparsable lines, responses to unknown ids, …). */
  readonly errors: Error[];
}

/**
 * Installs the suite's hooks (call it inside a `describe`) and returns `connect`: it starts a server, connects a
 * v1 client set up as asked, and registers both for the `afterEach` that closes them and waits until the server
 * is gone. Skips the test when the factory's `prepare` said the peers cannot run.
 */
export function useV1Clients(factory: BoomerangPeerFactory): ConnectV1 {
  let unavailable: string | undefined;
  const running: { client: Client; peer: BoomerangPeer; errors: Error[] }[] = [];

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
    // Nothing went wrong on the wire that the v1 client only reports through `onerror` (except its reports of its
    // own aborts on `close()` over HTTP, see `ownAbort`).
    for (const { errors } of stopping) {
      expect(errors.map(String).filter((text) => !ownAbort.test(text))).toEqual([]);
    }
  });

  return async (ctx, setup = {}) => {
    if (unavailable !== undefined) ctx.skip(unavailable);
    const capabilities = setup.capabilities ?? ALL;
    const peer = await factory.start(setup.server);
    const client = new Client(
      { name: 'v1-host', version: '1.32.2' },
      { capabilities, enforceStrictCapabilities: setup.strict ?? true },
    );
    const connection: V1Connection = {
      client,
      peer,
      wire: new Wire(),
      questions: [],
      samples: [],
      logs: [],
      errors: [],
    };
    running.push({ client, peer, errors: connection.errors });
    client.onerror = (error) => connection.errors.push(error);
    const elicit = 'elicit' in setup ? setup.elicit : accept;
    if (elicit !== undefined && capabilities.elicitation !== undefined) {
      client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
        connection.questions.push(request.params);
        return elicit(request.params, extra.signal);
      });
    }
    if (setup.sample ?? capabilities.sampling !== undefined) {
      client.setRequestHandler(CreateMessageRequestSchema, (request) => {
        connection.samples.push(request.params);
        return { role: 'assistant', content: { type: 'text', text: 'A short line.' }, model: 'v1-model' };
      });
    }
    if (setup.roots ?? capabilities.roots !== undefined) {
      client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: ROOTS }));
    }
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      connection.logs.push(notification.params);
    });
    await client.connect(tapV1(peer.transport, connection.wire));
    return connection;
  };
}
