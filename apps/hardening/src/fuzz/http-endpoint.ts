// The Streamable HTTP endpoint (`createHttpHandler`, no sockets) under random requests: any method, any subset
// of the headers it reads with well- and ill-formed values, and bodies from valid MCP requests to mutated JSON
// and junk. Every answer must be well-formed HTTP and JSON-RPC, and never a 5xx with internals.
import { parseMessage } from '@boomerang/protocol/transport';
import { createHttpHandler } from '@boomerang/transport-http';
import fc from 'fast-check';
import { fuzzServer, META } from './fixtures.js';
import type { FuzzTarget } from './target.js';

const ENDPOINT = 'http://127.0.0.1:3000/mcp';
const MAX_BODY = 4096;

/** A header value a `Headers` object accepts: visible ASCII and spaces, no line breaks. */
const token = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 24,
});

const choice = (...values: string[]) => fc.oneof(fc.constantFrom(...values), token);

const headers = fc.record(
  {
    'content-type': choice(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'APPLICATION/JSON',
    ),
    accept: choice('application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*'),
    'mcp-protocol-version': choice('2026-07-28', '2025-11-25', '2025-06-18', '1999-01-01'),
    'mcp-method': choice('tools/call', 'tools/list', 'initialize', 'prompts/get'),
    'mcp-name': choice('echo', 'plan', 'greeting', 'nope'),
    'mcp-session-id': choice('0123456789abcdef0123456789abcdef0123456789abcdef', 'x'),
    'mcp-param-text': choice('=?base64?aGk=?=', 'hi'),
    host: choice('127.0.0.1:3000', 'localhost:3000', 'evil.example', ''),
    origin: choice('http://127.0.0.1:3000', 'https://evil.example', 'null'),
    'last-event-id': token,
    authorization: choice('Bearer x', 'Basic eDp5'),
  },
  { requiredKeys: [] },
);

const id = fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.constant(null));
const meta = fc.oneof(
  { weight: 4, arbitrary: fc.constant(META as Record<string, unknown>) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.constantFrom(...Object.keys(META), 'x'), fc.jsonValue({ maxDepth: 2 })),
  },
);
const params = fc.record(
  {
    _meta: meta,
    name: fc.constantFrom('echo', 'plan', 'greeting', 'nope'),
    uri: fc.constantFrom('note://1', 'note://2'),
    arguments: fc.oneof(
      fc.record({ text: fc.string({ maxLength: 12 }) }),
      fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 })),
    ),
    inputResponses: fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
    requestState: fc.string({ maxLength: 40 }),
    cursor: fc.string({ maxLength: 10 }),
    protocolVersion: fc.constantFrom('2025-11-25', '2026-07-28'),
    capabilities: fc.constant({}),
    clientInfo: fc.constant({ name: 'fuzz', version: '1' }),
  },
  { requiredKeys: [] },
);
const METHODS = [
  'tools/call',
  'tools/list',
  'prompts/get',
  'prompts/list',
  'resources/read',
  'resources/list',
  'resources/templates/list',
  'server/discover',
  'completion/complete',
  'initialize',
  'ping',
  'notifications/initialized',
  'notifications/cancelled',
];
const message = fc.record(
  {
    jsonrpc: fc.oneof(
      { weight: 9, arbitrary: fc.constant('2.0') },
      { weight: 1, arbitrary: fc.string({ maxLength: 3 }) },
    ),
    id,
    method: fc.oneof(
      { weight: 9, arbitrary: fc.constantFrom(...METHODS) },
      { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
    ),
    params,
    result: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: ['jsonrpc'] },
);

const body = fc.oneof(
  { weight: 6, arbitrary: message.map((value) => JSON.stringify(value)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        message.map((value) => JSON.stringify(value)),
        fc.nat(),
        fc.string({ maxLength: 2 }),
      )
      .map(
        ([text, at, with_]) =>
          text.slice(0, at % (text.length + 1)) + with_ + text.slice((at % (text.length + 1)) + 1),
      ),
  },
  { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  { weight: 1, arbitrary: fc.constant('x'.repeat(MAX_BODY + 1)) },
);

const request = fc.record({
  method: fc.oneof(
    { weight: 8, arbitrary: fc.constant('POST') },
    { weight: 2, arbitrary: fc.constantFrom('GET', 'DELETE', 'PUT', 'OPTIONS', 'PATCH') },
  ),
  headers,
  body,
  query: fc.constantFrom('', '?x=1'),
});

const STATUSES: ReadonlySet<number> = new Set([200, 202, 400, 403, 404, 405, 406, 409, 413, 415, 429, 503]);
const STACK = /\n\s+at |\bat [\w.<>]+ \(/;

/** Reads a body with a deadline: an answer that never ends is a failure too. */
async function readBody(response: Response): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the answer did not end within 2 s')), 2000);
  });
  try {
    return await Promise.race([response.text(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every JSON-RPC message of an event stream's `data` lines. */
function eventData(text: string): string[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n'),
    )
    .filter((data) => data !== '');
}

/** Checks one answer; throws what is wrong with it. */
async function checkAnswer(response: Response): Promise<void> {
  const { status } = response;
  const text = await readBody(response);
  if (!STATUSES.has(status)) throw new Error(`status ${status}: ${text.slice(0, 200)}`);
  if (STACK.test(text)) throw new Error(`a stack trace on the wire: ${text.slice(0, 200)}`);
  const type = response.headers.get('content-type') ?? '';
  if (status === 202) {
    if (text !== '') throw new Error(`202 with a body: ${text.slice(0, 80)}`);
    return;
  }
  if (type.startsWith('text/event-stream')) {
    const events = eventData(text);
    if (events.length === 0) throw new Error('an event stream without events');
    for (const data of events) {
      if (!parseMessage(data).ok) throw new Error(`an event that is not JSON-RPC: ${data.slice(0, 80)}`);
    }
    const last = parseMessage(events.at(-1) as string);
    if (!last.ok || (last.kind !== 'result' && last.kind !== 'error'))
      throw new Error('the stream ends without a response');
    return;
  }
  if (!type.startsWith('application/json')) throw new Error(`status ${status} with content-type ${type}`);
  const parsed = parseMessage(text);
  if (!parsed.ok || (parsed.kind !== 'result' && parsed.kind !== 'error')) {
    throw new Error(`not a JSON-RPC response: ${text.slice(0, 120)}`);
  }
  if (
    parsed.kind === 'error' &&
    status === 200 &&
    (parsed.message as { error: { code: number } }).error.code === -32603
  ) {
    throw new Error(`an internal error: ${text.slice(0, 120)}`);
  }
}

/** The HTTP endpoint target. */
export const httpEndpointTarget: FuzzTarget = {
  name: 'HTTP endpoint',
  claim:
    'every answer is a listed status with a JSON-RPC body (or 202 empty, or a well-formed event stream); no 5xx but 503, no -32603, no stack',
  setup() {
    const { mcp } = fuzzServer();
    const handler = createHttpHandler(mcp, { maxBodyBytes: MAX_BODY });
    return {
      property: fc.asyncProperty(request, async (shape) => {
        const init: RequestInit = { method: shape.method, headers: shape.headers };
        if (shape.method !== 'GET') init.body = shape.body;
        await checkAnswer(await handler(new Request(ENDPOINT + shape.query, init)));
      }) as never,
      dispose: async () => {
        await handler.close();
        await mcp.close();
      },
    };
  },
};
