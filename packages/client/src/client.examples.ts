// Examples quoted into the README (each `#region` verbatim); client.examples.test.ts runs them against a scripted
// server and checks that the README still quotes them exactly.
import { readFile, writeFile } from 'node:fs/promises';
import {
  type CallToolResult,
  type InputRequiredResult,
  type InputResponses,
  isInputRequired,
  type Transport,
} from '@boomerang/protocol';
import { type CacheStore, Client } from './index.js';

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
/** What process 1 stores: plain JSON. */
interface PendingCall {
  readonly args: Record<string, unknown>;
  readonly pending: InputRequiredResult;
}

/** No callback answers here, so the capability the server's questions need is declared directly. */
const manual = { capabilities: { elicitation: { form: {} } } };

/** Process 1: start the call; if the server needs input, store the round and stop. */
export async function start(transport: Transport, file: string): Promise<CallToolResult | undefined> {
  const client = new Client({ name: 'provision-cli', version: '1.0.0' }, manual);
  await client.connect(transport);
  try {
    const args = { name: 'orders' };
    const result = await client.session.callTool('provision', args, { allowInputRequired: true });
    if (!isInputRequired(result)) return result;
    const saved: PendingCall = { args, pending: result };
    await writeFile(file, JSON.stringify(saved));
    return undefined;
  } finally {
    await client.close();
  }
}

/** Process 2, later: answer every stored question and send the round back, with the state exactly as stored. */
export async function answer(
  transport: Transport,
  file: string,
  region: string,
): Promise<CallToolResult | InputRequiredResult> {
  const { args, pending } = JSON.parse(await readFile(file, 'utf8')) as PendingCall;
  const inputResponses: InputResponses = {};
  for (const key of Object.keys(pending.inputRequests ?? {})) {
    inputResponses[key] = { action: 'accept', content: { region } };
  }
  const client = new Client({ name: 'provision-cli', version: '1.0.0' }, manual);
  await client.connect(transport);
  try {
    return await client.session.callTool('provision', args, {
      allowInputRequired: true,
      inputResponses,
      requestState: pending.requestState,
    });
  } finally {
    await client.close();
  }
}
// #endregion manual

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
