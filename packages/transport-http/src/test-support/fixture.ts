// Test helpers: a real low-level Server with tools that exercise HTTP (x-mcp-header, progress, log, a slow tool
// that honours cancellation, a two-round sealed MRTR flow), and raw POSTs with correct headers.
import { elicitRequest, inputRequired, type JSONRPCMessage } from '@boomerang/protocol';
import { ElicitResultSchema } from '@boomerang/protocol/schemas';
import { Server, sealed } from '@boomerang/server';

export const tools = [
  {
    name: 'echo',
    description: 'Echoes text; its region is mirrored into Mcp-Param-Region',
    inputSchema: {
      type: 'object' as const,
      properties: {
        text: { type: 'string' },
        region: { type: 'string', 'x-mcp-header': 'Region' },
        options: {
          type: 'object',
          properties: { count: { type: 'integer', 'x-mcp-header': 'Count' } },
        },
      },
    },
  },
  { name: 'progress', inputSchema: { type: 'object' as const } },
  { name: 'slow', inputSchema: { type: 'object' as const } },
  { name: 'ask', inputSchema: { type: 'object' as const } },
  {
    name: 'bad-header',
    inputSchema: {
      type: 'object' as const,
      properties: { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } },
    },
  },
];

/** What the test server saw: the signals of `slow` calls, aborted when the client went away. */
export interface Observed {
  readonly slowSignals: AbortSignal[];
}

/** The server under test. `slow` waits until its signal aborts; `ask` runs two sealed MRTR rounds. */
export function makeServer(observed: Observed = { slowSignals: [] }): Server {
  return new Server(
    { name: 'http-test', version: '1.0.0' },
    {
      capabilities: { logging: {} },
      logger: {}, // silence: tests provoke internal errors on purpose
      requestState: sealed({ keys: [crypto.getRandomValues(new Uint8Array(32))] }),
      onListTools: () => ({ tools }),
      onCallTool: async ({ name, arguments: args }, ctx) => {
        switch (name) {
          case 'echo':
            return { content: [{ type: 'text', text: String(args?.text ?? '') }] };
          case 'progress':
            for (let step = 1; step <= 3; step++) {
              await ctx.sendProgress(step, 3, `step ${step}`);
              await ctx.log('info', { step });
            }
            return { content: [{ type: 'text', text: 'done' }] };
          case 'slow':
            observed.slowSignals.push(ctx.signal);
            await ctx.sendProgress(1);
            await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
            return { content: [{ type: 'text', text: 'cancelled' }] };
          case 'ask': {
            const answer = ElicitResultSchema.safeParse(ctx.inputResponses?.color);
            if (ctx.requestState === 'asked' && answer.success && answer.data.action === 'accept') {
              return { content: [{ type: 'text', text: `color: ${String(answer.data.content?.color)}` }] };
            }
            return inputRequired({
              inputRequests: {
                color: elicitRequest({
                  message: 'Which color?',
                  requestedSchema: { type: 'object', properties: { color: { type: 'string' } } },
                }),
              },
              requestState: 'asked',
            });
          }
          default:
            throw new Error(`unexpected tool ${name}`);
        }
      },
    },
  );
}

/** Required request `_meta`, plus `extra`. */
export function meta(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    ...extra,
  };
}

let nextId = 1;

/** A JSON-RPC request with full `_meta`. */
export function rpc(method: string, params: Record<string, unknown> = {}, id: number | string = nextId++) {
  return { jsonrpc: '2.0' as const, id, method, params: { _meta: meta(), ...params } };
}

/** The headers a conforming client sends for `message` (override or drop any with `overrides`, `null` drops). */
export function headersFor(
  message: { method: string; params?: Record<string, unknown> },
  overrides: Record<string, string | null> = {},
): Headers {
  const headers = new Headers({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': message.method,
  });
  const params = message.params ?? {};
  const name = message.method === 'resources/read' ? params.uri : params.name;
  if (typeof name === 'string' && ['tools/call', 'prompts/get', 'resources/read'].includes(message.method)) {
    headers.set('mcp-name', name);
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === null) headers.delete(key);
    else headers.set(key, value);
  }
  return headers;
}

/** A POST of `message` (an object, or raw text) with conforming headers, adjusted by `overrides`. */
export function post(
  message: JSONRPCMessage | { method: string; params?: Record<string, unknown> } | string,
  overrides: Record<string, string | null> = {},
  init: RequestInit = {},
): Request {
  const body = typeof message === 'string' ? message : JSON.stringify(message);
  const headers =
    typeof message === 'string'
      ? headersFor({ method: 'tools/list' }, overrides)
      : headersFor(message as { method: string; params?: Record<string, unknown> }, overrides);
  return new Request('http://127.0.0.1:3000/mcp', { method: 'POST', headers, body, ...init });
}

/** The JSON body of a response. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary wire fields
export async function bodyOf(response: Response): Promise<any> {
  return JSON.parse(await response.text());
}

/** Every JSON-RPC message of an SSE response body, in order. */
export async function eventsOf(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n');
      return JSON.parse(data) as Record<string, unknown>;
    });
}
