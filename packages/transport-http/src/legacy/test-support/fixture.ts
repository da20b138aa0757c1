// Test helpers for 2025-11-25 sessions: a low-level Server whose tools ask the client by returning an
// InputRequiredResult, which the session fulfils with a real server→client request mid-call (`legacy: { shim:
// true }`), and a raw 2025-11-25 HTTP client that speaks the wire by hand.
import { elicitRequest, inputRequired } from '@boomerang/protocol';
import { Server } from '@boomerang/server';
import { afterEach } from 'vitest';
import type { HttpMessageHandler } from '../../endpoint.js';
import {
  createHttpHandler,
  type FetchHandler,
  type HttpHandler,
  type HttpHandlerOptions,
} from '../../handler.js';
import { sseData } from '../../sse-reader.js';

/** What the legacy test server saw. */
export interface LegacyObserved {
  /** The signal of every `wait` call, in order. */
  readonly waits: AbortSignal[];
  /** `ctx.auth` of every `whoami` call. */
  readonly principals: unknown[];
}

/**
 * `ask` elicits a name and greets it; `wait` waits until its signal aborts or `release()` is called; `wait-ask`
 * waits for `release()`, then asks; `log` sends a log notification first; `whoami` records `ctx.auth`.
 */
export function makeLegacyServer(observed: LegacyObserved = { waits: [], principals: [] }) {
  const releases: (() => void)[] = [];
  const server = new Server(
    { name: 'legacy-http-test', version: '1.0.0' },
    {
      capabilities: { logging: {} },
      logger: {},
      legacy: { shim: true },
      onListTools: () => ({
        tools: ['ask', 'wait', 'log', 'whoami', 'wait-ask'].map((name) => ({
          name,
          inputSchema: { type: 'object' },
        })),
      }),
      onCallTool: async ({ name }, ctx) => {
        const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
        const answer = ctx.inputResponses?.name as
          | { action: string; content?: { name?: string } }
          | undefined;
        const askName = () => {
          if (answer === undefined) {
            const question = elicitRequest({
              message: 'Your name?',
              requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
            });
            return inputRequired({ inputRequests: { name: question } });
          }
          return text(answer.action === 'accept' ? `hello ${answer.content?.name}` : answer.action);
        };
        switch (name) {
          case 'ask':
            return askName();
          case 'wait-ask':
            if (answer === undefined) await new Promise<void>((resolve) => releases.push(resolve));
            return askName();
          case 'wait':
            observed.waits.push(ctx.signal);
            await new Promise<void>((resolve) => {
              releases.push(resolve);
              ctx.signal.addEventListener('abort', () => resolve(), { once: true });
            });
            return text(ctx.signal.aborted ? 'aborted' : 'released');
          case 'log':
            await ctx.log('info', 'about to answer');
            return text('logged');
          case 'whoami':
            observed.principals.push(ctx.auth);
            return text(String(ctx.auth?.subject));
          default:
            throw new Error(`unexpected tool ${name}`);
        }
      },
    },
  );
  return {
    server,
    observed,
    release: () => {
      for (const resolve of releases.splice(0)) resolve();
    },
  };
}

const ENDPOINT = 'http://127.0.0.1:3000/mcp';

/** The initialize request of a 2025-11-25 client that can elicit. */
export function initializeRequest(id: number | string = 'init', capabilities: object = { elicitation: {} }) {
  return {
    jsonrpc: '2.0' as const,
    id,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities,
      clientInfo: { name: 'raw-legacy-client', version: '1.0.0' },
    },
  };
}

/** A 2025-11-25 HTTP request: JSON body, both Accept types, the session and version headers when given. */
export function legacyRequest(
  method: string,
  body: unknown,
  options: { session?: string; version?: string | null; headers?: Record<string, string> } = {},
  init: RequestInit = {},
): Request {
  const headers = new Headers({ accept: 'application/json, text/event-stream' });
  if (method === 'POST') headers.set('content-type', 'application/json');
  if (options.session !== undefined) headers.set('mcp-session-id', options.session);
  const version = options.version === undefined ? '2025-11-25' : options.version;
  if (version !== null && options.session !== undefined) headers.set('mcp-protocol-version', version);
  for (const [key, value] of Object.entries(options.headers ?? {})) headers.set(key, value);
  return new Request(ENDPOINT, {
    method,
    headers,
    ...(method === 'POST' ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    ...init,
  });
}

/** Opens a session on `handler`: initialize + initialized; resolves to the session id. */
export async function openSession(
  handler: FetchHandler,
  capabilities: object = { elicitation: {} },
  headers: Record<string, string> = {},
): Promise<string> {
  const response = await handler(legacyRequest('POST', initializeRequest('init', capabilities), { headers }));
  const session = response.headers.get('mcp-session-id');
  if (response.status !== 200 || session === null) {
    throw new Error(`initialize failed: ${response.status} ${await response.text()}`);
  }
  await response.text();
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
  const ack = await handler(legacyRequest('POST', initialized, { session, headers }));
  if (ack.status !== 202) throw new Error(`initialized got ${ack.status}`);
  return session;
}

/** Reads an event stream one JSON-RPC message at a time. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary wire fields
export function eventReader(response: Response): { next(): Promise<any> } {
  if (response.body === null) throw new Error('no body');
  const events = sseData(response.body);
  return {
    async next() {
      const { done, value } = await events.next();
      return done ? undefined : JSON.parse(value);
    },
  };
}

let nextId = 1;

/** A `tools/call` request of a 2025-11-25 client (no `_meta`). */
export function callTool(name: string, id: number | string = nextId++) {
  return { jsonrpc: '2.0' as const, id, method: 'tools/call', params: { name, arguments: {} } };
}

/**
 * Registers the `afterEach` that closes every handler made by the returned `setup(options)`: a fresh legacy
 * test server (`makeLegacyServer`) behind `createHttpHandler(server, { onError: silent, ...defaults, ...options })`.
 * `handlers` keeps other handlers a test makes, closed the same way.
 */
export function useLegacyHandlers(defaults: HttpHandlerOptions = {}) {
  const handlers: HttpHandler[] = [];
  afterEach(async () => {
    await Promise.all(handlers.splice(0).map((handler) => handler.close()));
  });
  const serve = (server: HttpMessageHandler, options: HttpHandlerOptions = {}) => {
    const handler = createHttpHandler(server, { onError: () => {}, ...defaults, ...options });
    handlers.push(handler);
    return handler;
  };
  return {
    serve,
    setup(options: HttpHandlerOptions = {}) {
      const legacy = makeLegacyServer();
      return { ...legacy, handler: serve(legacy.server, options) };
    },
  };
}

/** Resolves once `check()` holds (polled every 5 ms); rejects after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 2000): Promise<void> {
  const stop = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > stop) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
