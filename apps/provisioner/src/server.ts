import { randomBytes } from 'node:crypto';
import {
  type CallToolRequestParams,
  type CallToolResult,
  type ElicitRequest,
  ErrorCode,
  elicitRequest,
  type InputRequiredResult,
  inputRequired,
  McpError,
  type Tool,
} from '@boomerang/protocol';
import { ElicitResultSchema } from '@boomerang/protocol/schemas';
import { type HandlerResult, type Logger, Server, sealed } from '@boomerang/server';

/** The regions the provisioner offers: the `const` values the form accepts, with a title for display. */
export const REGIONS = [
  { const: 'us-east-1', title: 'US East (N. Virginia)' },
  { const: 'us-west-2', title: 'US West (Oregon)' },
  { const: 'eu-west-1', title: 'Europe (Ireland)' },
  { const: 'eu-central-1', title: 'Europe (Frankfurt)' },
  { const: 'ap-southeast-2', title: 'Asia Pacific (Sydney)' },
] as const;

/** A region id the provisioner offers. */
export type Region = (typeof REGIONS)[number]['const'];

/** The `inputRequests` key (and form field) of the region question. */
export const REGION_KEY = 'region';

/** What a database name must look like: a DNS label. */
const NAME_PATTERN = /^[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** The `provision` tool as `tools/list` shows it. */
export const provisionTool: Tool = {
  name: 'provision',
  title: 'Provision a database',
  description: 'Provision a database. Asks the user which region to put it in.',
  inputSchema: {
    type: 'object',
    properties: { name: { type: 'string', description: 'Database name (a DNS label, e.g. "orders")' } },
    required: ['name'],
  },
  outputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      region: { type: 'string' },
      endpoint: { type: 'string' },
    },
    required: ['id', 'name', 'region', 'endpoint'],
  },
};

/** The resource a completed `provision` call describes (its `structuredContent`). */
export interface ProvisionedDatabase {
  [key: string]: unknown;
  id: string;
  name: string;
  region: Region;
  endpoint: string;
}

/**
 * What the server keeps between the two rounds, in `requestState`: the reservation made when it first asked.
 * The client holds it (in a file, for the CLI) and echoes it; `sealed()` encrypts it and binds it to this tool,
 * these arguments and an expiry, so it comes back unchanged or not at all.
 */
interface Reservation {
  v: 1;
  reservation: string;
}

/** Options of {@link createProvisionerServer}. */
export interface ProvisionerServerOptions {
  /** Secrets of ≥ 32 bytes sealing `requestState` (`keys[0]` seals, all open). Share them across processes. */
  keys: readonly Uint8Array[];
  /** Lifetime of the sealed state of one round, in seconds (default 600). */
  ttlSeconds?: number;
  /** The time in epoch milliseconds, for tests (default `Date.now`). */
  clock?: () => number;
  /** Where the server reports what it never sends on the wire, e.g. why a `requestState` was rejected. */
  logger?: Logger;
}

/**
 * The seed's provisioner as a low-level `Server`: one tool, `provision({ name })`, which returns an
 * `InputRequiredResult` asking for the region (a form with an enum of regions) until the retry carries an
 * accepted answer, then completes with the provisioned database. Request state is sealed (`sealed({ keys })`).
 */
export function createProvisionerServer(options: ProvisionerServerOptions): Server {
  return new Server(
    { name: 'provisioner', version: '1.0.0', title: 'Provisioner' },
    {
      instructions: 'Call provision with a database name; the user is asked which region it goes to.',
      requestState: sealed({
        keys: options.keys,
        ...(options.ttlSeconds === undefined ? {} : { ttlSeconds: options.ttlSeconds }),
        ...(options.clock === undefined ? {} : { clock: options.clock }),
        audience: 'provisioner',
      }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      onListTools: () => ({ tools: [provisionTool] }),
      onCallTool: (params, ctx) => {
        if (params.name !== provisionTool.name) {
          throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
        }
        return provision(params, ctx.inputResponses?.[REGION_KEY], ctx.requestState);
      },
    },
  );
}

/** One round of `provision`: ask, ask again, refuse, or complete. */
function provision(
  params: CallToolRequestParams,
  response: unknown,
  state: string | undefined,
): HandlerResult<CallToolResult> | InputRequiredResult {
  const name = params.arguments?.name;
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
    return failure(`"name" must be a DNS label such as "orders" (got ${JSON.stringify(name ?? null)}).`);
  }
  // Round 1 (no state yet): reserve, then ask. Only a retry that brings back the reservation this server sealed
  // can finish: an answer without it (a client that lost or dropped the state) gets the question again.
  const reservation = parseReservation(state);
  if (reservation === undefined || response === undefined) {
    return askRegion(name, reservation ?? { v: 1, reservation: `rsv-${randomBytes(5).toString('hex')}` });
  }

  // Answers are client input: validate them like anything else.
  const answer = ElicitResultSchema.safeParse(response);
  if (!answer.success)
    throw new McpError(ErrorCode.InvalidParams, 'inputResponses.region is not an ElicitResult');
  if (answer.data.action !== 'accept') {
    return failure(`Provisioning of '${name}' was cancelled: no region was chosen (${answer.data.action}).`);
  }
  const region = answer.data.content?.[REGION_KEY];
  const offered = REGIONS.find((r) => r.const === region);
  if (offered === undefined) return askRegion(name, reservation, region);

  const database: ProvisionedDatabase = {
    id: `db-${reservation.reservation.slice(4)}`,
    name,
    region: offered.const,
    endpoint: `${name}.${offered.const}.db.example.internal:5432`,
  };
  return {
    content: [
      {
        type: 'text',
        text: `Provisioned database '${name}' in ${offered.const} (${offered.title}): ${database.id} at ${database.endpoint}.`,
      },
    ],
    structuredContent: database,
  };
}

/** The question, as an `InputRequiredResult` carrying the reservation in its state. */
function askRegion(name: string, reservation: Reservation, rejected?: unknown): InputRequiredResult {
  const again = rejected === undefined ? '' : `'${String(rejected)}' is not a region we offer. `;
  return inputRequired({
    inputRequests: {
      [REGION_KEY]: regionQuestion(`${again}Which region should the database '${name}' live in?`),
    },
    requestState: JSON.stringify(reservation),
  });
}

/** The region form: one required field, a single choice among {@link REGIONS}. */
export function regionQuestion(message: string): ElicitRequest {
  return elicitRequest({
    mode: 'form',
    message,
    requestedSchema: {
      type: 'object',
      properties: {
        [REGION_KEY]: {
          type: 'string',
          title: 'Region',
          description: 'Where the database lives',
          oneOf: REGIONS.map((r) => ({ const: r.const, title: r.title })),
        },
      },
      required: [REGION_KEY],
    },
  });
}

/**
 * The reservation in an opened `requestState`, or `undefined` when there is none. The state was sealed by this
 * server, so a state that opens but does not parse is a bug (or a key shared with another service): `-32602`.
 */
function parseReservation(state: string | undefined): Reservation | undefined {
  if (state === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(state);
  } catch {
    value = undefined;
  }
  const reservation = (value as Partial<Reservation> | undefined)?.reservation;
  if (typeof reservation !== 'string' || !reservation.startsWith('rsv-')) {
    throw new McpError(ErrorCode.InvalidParams, 'Invalid or expired requestState');
  }
  return { v: 1, reservation };
}

/** A tool error the model (or the user) can read: `isError: true` with one text block. */
function failure(text: string): HandlerResult<CallToolResult> {
  return { content: [{ type: 'text', text }], isError: true };
}
