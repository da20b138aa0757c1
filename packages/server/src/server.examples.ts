// Examples quoted in README.md: they typecheck with the package and run in server.examples.test.ts.
// #region provisioner
import { ErrorCode, elicitRequest, inputRequired, McpError } from '@boomerang/protocol';
import { ElicitResultSchema } from '@boomerang/protocol/schemas';
import { generateKey, parseKeys } from '@boomerang/seal';
import { Server, sealed } from '@boomerang/server';

const provision = {
  name: 'provision',
  description: 'Create a database in a region the user picks',
  inputSchema: { type: 'object' as const, properties: { name: { type: 'string' } }, required: ['name'] },
};

export const server = new Server(
  { name: 'provisioner', version: '1.0.0' },
  {
    // One line: request state is encrypted, expires after 10 minutes, and only opens on a retry of the same
    // tool, with the same arguments, by the same user. Share STATE_KEYS across replicas.
    requestState: sealed({
      keys: process.env.STATE_KEYS ? parseKeys(process.env.STATE_KEYS) : [generateKey()],
    }),
    cache: { methods: { 'tools/list': { ttlMs: 60_000, cacheScope: 'public' } } },
    onListTools: () => ({ tools: [provision] }),
    onCallTool: ({ name, arguments: args }, ctx) => {
      if (name !== 'provision') throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      // Answers are client input: validate them like any other.
      const answer = ElicitResultSchema.safeParse(ctx.inputResponses?.region);
      const region =
        answer.success && answer.data.action === 'accept' ? answer.data.content?.region : undefined;
      if (ctx.requestState === 'asked-region' && typeof region === 'string') {
        return { content: [{ type: 'text', text: `Provisioned ${String(args?.name)} in ${region}` }] };
      }
      // Ask, and say so in the state: the retry comes back with the answer and this (opened) state.
      return inputRequired({
        inputRequests: {
          region: elicitRequest({
            message: 'Which region?',
            requestedSchema: {
              type: 'object',
              properties: { region: { type: 'string', enum: ['eu-west-1', 'us-east-1'] } },
              required: ['region'],
            },
          }),
        },
        requestState: 'asked-region',
      });
    },
  },
);

// #endregion provisioner

// #region wire
import { isInputRequired } from '@boomerang/protocol';
import { CallToolResultSchema } from '@boomerang/protocol/schemas';
import { isJSONRPCResultResponse } from '@boomerang/protocol/transport';

/** Two rounds of `tools/call`, as raw JSON-RPC: what any client (or `@boomerang/client`) sends. */
export async function demo(): Promise<string> {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  };
  const call = { name: 'provision', arguments: { name: 'orders' } };
  const first = await server.handle({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { _meta, ...call },
  });
  if (!isJSONRPCResultResponse(first) || !isInputRequired(first.result))
    throw new Error('expected a question');

  const retry = {
    ...call,
    inputResponses: { region: { action: 'accept', content: { region: 'eu-west-1' } } },
    requestState: first.result.requestState, // echoed byte for byte
  };
  const second = await server.handle({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { _meta, ...retry },
  });
  const done = CallToolResultSchema.parse(isJSONRPCResultResponse(second) ? second.result : undefined);
  return done.content[0]?.type === 'text' ? done.content[0].text : ''; // "Provisioned orders in eu-west-1"
}

// #endregion wire

// #region serve
import type { Transport } from '@boomerang/protocol/transport';

/**
 * Serves the server over any stream transport (stdio, in-memory) until `signal` aborts. Requests run
 * concurrently; `notifications/cancelled` aborts the handler's `ctx.signal`.
 */
export async function serve(transport: Transport, signal: AbortSignal): Promise<void> {
  const connection = await server.connect(transport);
  signal.addEventListener('abort', () => void connection.close(), { once: true });
  await connection.closed; // settles after close(), or when the peer closes the transport
}
// #endregion serve

// #region progress
/** A long tool that reports progress (when the client asked with a progressToken) and honours cancellation. */
export const worker = new Server(
  { name: 'worker', version: '1.0.0' },
  {
    capabilities: { logging: {} },
    onCallTool: async (_params, ctx) => {
      for (let step = 1; step <= 3; step++) {
        ctx.signal.throwIfAborted();
        await ctx.sendProgress(step, 3, `step ${step} of 3`);
        await ctx.log('info', { step }); // sent only if the request asked for "info" or lower
      }
      return { content: [{ type: 'text', text: 'done' }] };
    },
  },
);

// #endregion progress

// #region listen
import type { Tool } from '@boomerang/protocol';
import { createNotificationHub } from '@boomerang/server';

/** One hub per process; give the same source to every Server that should share notifications. */
const hub = createNotificationHub();
const catalog: Tool[] = [provision];

export const watched = new Server(
  { name: 'catalog', version: '1.0.0' },
  {
    notifications: hub, // enables subscriptions/listen; advertises tools.listChanged
    cache: { methods: { 'tools/list': { ttlMs: 300_000, cacheScope: 'public' } } },
    onListTools: () => ({ tools: catalog }),
  },
);

/** Adds a tool at run time: every stream that asked for `toolsListChanged` gets a tagged list_changed. */
export async function addTool(tool: Tool): Promise<void> {
  catalog.push(tool);
  await watched.notifyListChanged('tools');
}

/** On shutdown: every open stream receives its listen result (a graceful end), then the process may exit. */
export async function shutdown(): Promise<void> {
  await watched.close();
}

// #endregion listen

import { defineMethod } from '@boomerang/server';
// #region methods
import { z } from 'zod';

const titles = ['Dune', 'Emma', 'Ulysses'];

export const search = new Server(
  { name: 'library', version: '1.0.0' },
  {
    // A vendor method: params validated by any Standard Schema, result stamped like any other.
    methods: {
      'acme/search': defineMethod({
        params: z.object({ query: z.string(), limit: z.number().int().positive().default(5) }),
        handler: ({ query, limit }) => ({
          hits: titles.filter((title) => title.toLowerCase().includes(query.toLowerCase())).slice(0, limit),
        }),
      }),
    },
    // An extension: advertised under capabilities.extensions, with its own methods.
    extensions: [
      {
        id: 'acme/holds',
        methods: {
          'acme/holds/place': defineMethod({
            params: z.object({ title: z.string() }),
            // May answer input_required: same capability checks and sealed state as tools/call.
            inputRequired: true,
            handler: ({ title }, ctx) =>
              ctx.inputResponses?.confirm === undefined
                ? inputRequired({
                    inputRequests: {
                      confirm: elicitRequest({
                        message: `Place a hold on ${title}?`,
                        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
                      }),
                    },
                  })
                : { held: title },
          }),
        },
      },
    ],
  },
);

// #endregion methods

// #region middleware
import { rateLimit, type ServerMiddleware } from '@boomerang/server';

/**
 * One log line per request (every round of a flow): method, round, outcome and time. And a short-circuit: a
 * suspended tenant, named by the caller's `_meta` (`CallOptions.meta` of the client), is refused before any handler.
 */
export function auditLog(lines: string[], suspended: ReadonlySet<string>): ServerMiddleware {
  return async (ctx, next) => {
    const tenant = ctx.meta['acme/tenant'];
    if (typeof tenant === 'string' && suspended.has(tenant)) {
      throw new McpError(ErrorCode.InvalidRequest, `Tenant ${tenant} is suspended`);
    }
    const started = performance.now();
    try {
      const result = await next();
      const ms = (performance.now() - started).toFixed(1);
      lines.push(`${ctx.method} round ${ctx.round}: ${String(result.resultType)} in ${ms} ms`);
      return result;
    } catch (error) {
      lines.push(`${ctx.method} round ${ctx.round}: error ${error instanceof McpError ? error.code : '?'}`);
      throw error;
    }
  };
}

export const auditLines: string[] = [];
export const audited = new Server(
  { name: 'audited', version: '1.0.0' },
  { onListTools: () => ({ tools: [] }) },
)
  .use(auditLog(auditLines, new Set(['globex'])))
  .use(rateLimit({ requests: 100, perMs: 60_000 })); // per principal; -32029 with data.retryAfterMs beyond it
// #endregion middleware
