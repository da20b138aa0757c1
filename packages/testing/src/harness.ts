// connectTestClient: a Client linked in memory to the server under test, answering from a script and recording
// every round, in one call.
import { Client, type ClientOptions, type InputCallbacks } from '@boomerang/client';
import {
  type AuthInfo,
  argumentError,
  type Implementation,
  type JSONRPCNotification,
} from '@boomerang/protocol';
import type { Transport } from '@boomerang/protocol/transport';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { type RecordedCall, Recorder } from './recorder.js';
import { type QuestionKind, type ScriptedAnswers, scriptedCallbacks } from './script.js';

/** What a test client connects to: a `Server` of `@boomerang/server`, an `McpServer`, anything served the same way. */
export interface TestServer {
  /** Serves one end of a stream transport (with the principal the requests carry, when given). */
  connect(transport: Transport, options?: { auth?: AuthInfo }): unknown;
}

/** Options of {@link connectTestClient}. */
export interface TestClientOptions {
  /** How the questions the server asks are answered (none by default: any question fails the call, naming it). */
  readonly answers?: ScriptedAnswers | undefined;
  /**
   * The kinds of question the client declares it answers, and so the capabilities every request carries
   * (default all three). Leave one out to test what the server does for a client without it (`-32021`).
   */
  readonly declare?: readonly QuestionKind[] | undefined;
  /** The principal the server sees on every request, as an authenticating transport would set it. */
  readonly auth?: AuthInfo | undefined;
  /** The `clientInfo` of every request (default `{ name: 'test-client', version: '0.0.0' }`). */
  readonly clientInfo?: Implementation | undefined;
  /**
   * Any other `Client` option (`inputRequiredMaxRounds`, `requestTimeoutMs`, `protocol`, `capabilities`,
   * `elicitationModes`, …); the answering callbacks come from `answers`.
   */
  readonly client?: Omit<ClientOptions, keyof InputCallbacks> | undefined;
}

/** A client connected to the server under test, with what it recorded; close it (or `await using`) after the test. */
export interface TestClient extends AsyncDisposable {
  /** The connected `Client`: call the server through it as a host would (`callTool`, `getPrompt`, …). */
  readonly client: Client;
  /** Every call made through `client` since it connected, in the order it started. */
  readonly calls: readonly RecordedCall[];
  /** The call that started last, or `undefined` before the first. */
  readonly lastCall: RecordedCall | undefined;
  /** Every notification the server sent since the client connected (progress, log messages, list changes). */
  readonly notifications: readonly JSONRPCNotification[];
  /** Closes the client and the in-memory link; calls in flight reject. Idempotent. */
  close(): Promise<void>;
}

const KINDS: readonly QuestionKind[] = ['elicitation', 'sampling', 'roots'];

/**
 * Connects a fresh `Client` to `server` in memory (the server first, with `auth` when given, then the client)
 * and returns it with its records. Each question the server asks is answered from `answers`: by its
 * `inputRequests` key, or by the first matching rule (key, kind, question text, round, any condition); a
 * question nothing answers fails the call with a `callback-failed` `ClientError` whose `cause` names the question.
 * Every call is recorded round by round from the wire: what each request carried, what the server answered, and
 * what it asked. Throws `TypeError`/`RangeError` for bad options; if connecting fails, the link is closed first.
 *
 * ```ts
 * await using t = await connectTestClient(server, { answers: { confirm: accept({ confirm: true }) } });
 * await t.client.callTool('clear_notes');
 * t.lastCall?.asked(1).confirm; // the question of round 1
 * ```
 */
export async function connectTestClient(
  server: TestServer,
  options: TestClientOptions = {},
): Promise<TestClient> {
  if (typeof server !== 'object' || server === null || typeof server.connect !== 'function') {
    throw argumentError('server', 'a Server or McpServer (an object with connect())', server);
  }
  if (typeof options !== 'object' || options === null) throw argumentError('options', 'an object', options);
  const declare = options.declare ?? KINDS;
  if (!Array.isArray(declare)) throw argumentError('declare', 'an array of question kinds', declare);
  for (const kind of declare) {
    if (!KINDS.includes(kind)) {
      throw new RangeError(`"declare" expected kinds among ${KINDS.join(', ')}, got ${JSON.stringify(kind)}`);
    }
  }
  const client = new Client(options.clientInfo ?? { name: 'test-client', version: '0.0.0' }, {
    ...options.client,
    ...scriptedCallbacks(options.answers, declare),
  });
  const recorder = new Recorder();
  const pair = createInMemoryPair();
  const [clientEnd, serverEnd] = pair;
  try {
    await (options.auth === undefined
      ? server.connect(serverEnd)
      : server.connect(serverEnd, { auth: options.auth }));
    await client.connect(recorder.tap(clientEnd));
  } catch (error) {
    await pair[Symbol.asyncDispose]();
    throw error;
  }
  recorder.recording = true;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      try {
        await client.close();
      } finally {
        await pair[Symbol.asyncDispose]();
      }
    })();
    return closing;
  };
  return {
    client,
    calls: recorder.calls,
    get lastCall() {
      return recorder.calls[recorder.calls.length - 1];
    },
    notifications: recorder.notifications,
    close,
    [Symbol.asyncDispose]: close,
  };
}
