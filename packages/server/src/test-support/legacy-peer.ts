// A scripted 2025-11-25 client on an in-memory connection: raw JSON-RPC, no SDK, so tests see the wire.
import type { JSONRPCMessage, JSONRPCResponse } from '@boomerang/protocol';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { Server } from '../server.js';
import type { ServerOptions } from '../types.js';
import { recordingLogger } from './wire.js';

/** Answers one server→client request: a result, or `{ error }` to answer with a JSON-RPC error. */
export type Answer = (request: {
  method: string;
  params?: Record<string, unknown>;
}) => unknown | Promise<unknown>;

/** Connects a {@link Server} built from `options` to a raw legacy peer; `answer` serves its requests. */
export async function legacyPeer(options: ServerOptions, answer: Answer = () => ({})) {
  const [client, serverEnd] = createInMemoryPair();
  const logger = recordingLogger();
  const server = new Server({ name: 'legacy-test', version: '1.0.0' }, { logger, ...options });
  const connection = await server.connect(serverEnd);
  const responses = new Map<string | number, (response: JSONRPCResponse) => void>();
  /** Every server→client request and notification, in order. */
  const fromServer: { method: string; id?: unknown; params?: Record<string, unknown> }[] = [];
  let nextId = 0;
  void (async () => {
    for await (const message of client.messages) {
      const m = message as Record<string, unknown>;
      if (typeof m.method !== 'string') {
        responses.get(m.id as string | number)?.(message as JSONRPCResponse);
        continue;
      }
      fromServer.push(m as (typeof fromServer)[number]);
      if (!('id' in m)) continue;
      void Promise.resolve(answer(m as Parameters<Answer>[0])).then((value) => {
        const isError = typeof value === 'object' && value !== null && 'error' in value;
        const reply = isError
          ? { jsonrpc: '2.0', id: m.id, ...value }
          : { jsonrpc: '2.0', id: m.id, result: value };
        if (value !== undefined) void client.send(reply as JSONRPCMessage).catch(() => {});
      });
    }
  })();

  const send = (message: Record<string, unknown>) => client.send(message as JSONRPCMessage);
  /** Sends a request and resolves to its response. */
  const call = (method: string, params?: Record<string, unknown>): Promise<JSONRPCResponse> => {
    const id = ++nextId;
    const done = new Promise<JSONRPCResponse>((resolve) => responses.set(id, resolve));
    void send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return done;
  };
  /** `initialize` + `notifications/initialized`; resolves to the initialize response. */
  const initialize = async (capabilities: Record<string, unknown> = {}) => {
    const response = await call('initialize', {
      protocolVersion: '2025-11-25',
      capabilities,
      clientInfo: { name: 'legacy-client', version: '0.1.0' },
    });
    await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response;
  };
  return { server, connection, client, logger, call, send, initialize, fromServer, requestId: () => nextId };
}
