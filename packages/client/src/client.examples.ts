// Examples quoted into the README (each `#region` verbatim); client.examples.test.ts runs them against a scripted
// server and checks that the README still quotes them exactly.
import { readFile, writeFile } from 'node:fs/promises';
import { type CallToolResult, hasExtension, type InputResponses } from '@boomerang/protocol';
import type { Transport } from '@boomerang/protocol/transport';
import { z } from 'zod';
import { type CacheStore, Client, type ClientOptions, type Continuation, type Step } from './index.js';

// #region automatic
/** Calls `provision`; the rounds in which the server asks for a region are answered by the callback. */
export async function provision(transport: Transport): Promise<CallToolResult> {
  const client = new Client(
    { name: 'host', version: '1.0.0' },
    {
      // Registering a callback declares the capability: `elicitation: { form: {}, url: {} }`.
      elicitation: async (params, ctx) => {
        console.log(`${ctx.method} asks (round ${ctx.round}): ${params.message}`);
        return { action: 'accept', content: { region: 'eu-west-1' } };
      },
    },
  );
  await client.connect(transport);
  try {
    // Every round is a new request; the timeout bounds them all.
    return await client.callTool('provision', { name: 'orders' }, { timeoutMs: 60_000 });
  } finally {
    await client.close();
  }
}
// #endregion automatic

// #region manual
/** No callback answers here, so the capability the server's questions need is declared directly. */
const manual = { capabilities: { elicitation: { form: {} } } };

/** Process 1: start the call; if the server needs input, store the continuation (plain JSON) and stop. */
export async function start(transport: Transport, file: string): Promise<CallToolResult | undefined> {
  const client = new Client({ name: 'provision-cli', version: '1.0.0' }, manual);
  await client.connect(transport);
  try {
    const step = await client.start('tools/call', { name: 'provision', arguments: { name: 'orders' } });
    if (step.continuation === undefined) return step.result;
    await writeFile(file, JSON.stringify(step.continuation));
    return undefined;
  } finally {
    await client.close();
  }
}

/** Process 2, later: answer every stored question; the continuation carries the method, params and state. */
export async function answer(
  transport: Transport,
  file: string,
  region: string,
): Promise<Step<CallToolResult>> {
  const continuation = JSON.parse(await readFile(file, 'utf8')) as Continuation<'tools/call'>;
  const responses: InputResponses = {};
  for (const key of Object.keys(continuation.inputRequests)) {
    responses[key] = { action: 'accept', content: { region } };
  }
  const client = new Client({ name: 'provision-cli', version: '1.0.0' }, manual);
  await client.connect(transport);
  try {
    return await client.resume(continuation, responses); // { result } or the next { continuation }
  } finally {
    await client.close();
  }
}
// #endregion manual

// #region extension
/** A vendor method's result, as its schema (zod here; any Standard Schema) validates and types it. */
const SearchResult = z.object({ hits: z.array(z.object({ title: z.string(), score: z.number() })) });

/**
 * Calls the server's `acme/search` when it declared the `acme/search` extension: the same MRTR loop, callbacks,
 * round cap, timeout and progress as `callTool`; the client declares its own side in `capabilities.extensions`.
 */
export async function searchIfSupported(transport: Transport, query: string): Promise<string[] | undefined> {
  const client = new Client(
    { name: 'host', version: '1.0.0' },
    { capabilities: { extensions: { 'acme/search': {} } } },
  );
  await client.connect(transport); // protocol 'auto' sends server/discover: serverCapabilities is known
  try {
    if (!hasExtension(client.serverCapabilities, 'acme/search')) return undefined;
    const { hits } = await client.request(
      'acme/search',
      { query },
      { result: SearchResult, timeoutMs: 10_000 },
    );
    return hits.map((hit) => hit.title);
  } finally {
    await client.close();
  }
}
// #endregion extension

// #region listen
/**
 * Keeps a host's view of the server's tools current. `listTools()` is served from the client's cache while the
 * server's `ttlMs` says it is fresh; a `tools/list_changed` on the listen stream drops the cached pages, so the
 * `listTools()` that follows goes to the server. Returns when the server ends the subscription; rejects with
 * `signal.reason` once `signal` aborts (which cancels the subscription).
 */
export async function watchTools(
  client: Client,
  onTools: (names: string[]) => void,
  signal: AbortSignal,
): Promise<void> {
  const subscription = client.listen({ toolsListChanged: true }, { signal });
  const agreed = await subscription.acknowledged; // what the server will actually send
  if (!agreed.toolsListChanged) console.warn('no tool change notifications: relying on ttlMs alone');
  onTools((await client.listTools()).tools.map((tool) => tool.name));
  for await (const _change of subscription) {
    onTools((await client.listTools()).tools.map((tool) => tool.name));
  }
}
// #endregion listen

// #region cache
/**
 * A gateway with one client per user and one store for all: `cacheScope: "public"` results are shared by every
 * user, `"private"` ones only by clients with the same `authContext`.
 */
export function clientFor(userId: string, store: CacheStore): Client {
  return new Client({ name: 'gateway', version: '1.0.0' }, { cache: { store, authContext: userId } });
}
// #endregion cache

// #region tasks
/** One host's options: it follows tasks, and a person confirms what a task asks. */
const host: ClientOptions = {
  tasks: true, // declares io.modelcontextprotocol/tasks: a tools/call may come back as a task
  elicitation: async (params, ctx) => {
    console.log(`${ctx.taskId === undefined ? 'the call' : `task ${ctx.taskId}`} asks: ${params.message}`);
    return { action: 'accept', content: { confirm: true } };
  },
};

/**
 * Prints a run that the server may turn into a task. `onTask` stores the task id before the client follows the
 * task, so a host that restarts meanwhile waits for it with `resumePrintRun()` instead of printing twice.
 */
export async function printRun(transport: Transport, file: string): Promise<CallToolResult> {
  const client = new Client(
    { name: 'host', version: '1.0.0' },
    { ...host, onTask: (task) => writeFile(file, task.taskId) },
  );
  await client.connect(transport);
  try {
    // The task's result when the server made one (its questions answered by the callback), else the plain one.
    return await client.callTool('print_run', { copies: 40 });
  } finally {
    await client.close();
  }
}

/** After a restart: waits for the stored task from this new process; what it still asks goes to the callback. */
export async function resumePrintRun(transport: Transport, file: string): Promise<CallToolResult> {
  const taskId = await readFile(file, 'utf8');
  const client = new Client({ name: 'host', version: '1.0.0' }, host);
  await client.connect(transport);
  try {
    return await client.tasks.result(taskId);
  } finally {
    await client.close();
  }
}
// #endregion tasks
