// What one Client is made of, assembled once from its options: the settings, the slot its connection goes in, the
// call runner (steps/, restart.ts and the MRTR loop, around the middleware chain), the list plumbing, and what
// `tools/list` teaches the other calls (each tool's hints and output schema).
import { CallRunner } from './call-runner.js';
import type { ToolResultCheck } from './calls.js';
import type { Connection, ServerDescription } from './connection.js';
import { Listing } from './listing.js';
import type { ClientMiddleware } from './middleware.js';
import { type ClientOptions, type ClientSettings, resolveClientOptions } from './options.js';
import { OutputSchemas } from './output-schemas.js';
import { ToolHints } from './restart.js';
import { TaskFollower } from './steps/follow-task.js';

/** The connection `connect()` opened, and what it learnt of the server. */
export class ConnectionSlot {
  connection: Connection | undefined;
  server: ServerDescription | undefined;
  connecting = false;
  /** The current connection (a function the runner and the task follower hold). */
  readonly current = (): Connection | undefined => this.connection;
}

/** The parts of one client. */
export interface ClientParts {
  readonly settings: ClientSettings;
  readonly slot: ConnectionSlot;
  /** The user's middleware, in registration order (`client.use` adds to it). */
  readonly middleware: ClientMiddleware[];
  /** Each tool's hints from the `tools/list` results received (for `restartOnInvalidState`). */
  readonly hints: ToolHints;
  /** The `outputSchema` of each tool of the last `tools/list`, by name: what `callTool` results must match. */
  readonly outputs: OutputSchemas;
  /** What a complete `tools/call` result must pass: its output schema, unless `validateToolOutput` is off. */
  readonly checkTool: ToolResultCheck | undefined;
  readonly taskFollower: TaskFollower;
  readonly runner: CallRunner;
  readonly listing: Listing;
}

/** Checks `options` (see `resolveClientOptions` for what it throws) and assembles the parts of a client. */
export function assembleClient(options: ClientOptions): ClientParts {
  const settings = resolveClientOptions(options);
  const slot = new ConnectionSlot();
  const middleware: ClientMiddleware[] = [];
  const hints = new ToolHints();
  const outputs = new OutputSchemas();
  const taskFollower = new TaskFollower(settings, slot.current);
  const runner = new CallRunner({
    settings,
    capabilities: settings.capabilities,
    connection: slot.current,
    middleware,
    hints,
    tasks: taskFollower,
  });
  const checkTool: ToolResultCheck | undefined = settings.validateToolOutput
    ? (name, result) => outputs.check({ method: 'tools/call', name }, result)
    : undefined;
  const listing = new Listing(settings, runner);
  return { settings, slot, middleware, hints, outputs, checkTool, taskFollower, runner, listing };
}
