import {
  type CallToolRequestParams,
  type CallToolResult,
  describeIssues,
  type InputRequiredResult,
  type InputResponses,
  isInputRequired,
  isThenable,
  McpError,
  type Tool,
  validate,
} from '@boomerang/protocol';
import type { HandlerResult, LogFn, RequestContext, TaskSupport } from '@boomerang/server';
import type { Registry } from './registry.js';
import {
  planRegistration,
  ResolutionError,
  type ResolverPlan,
  type ResolverPlanOptions,
  runResolvers,
  withoutResolved,
} from './resolvers/index.js';
import { resolveRound } from './resolvers/run.js';
import {
  type CheckedHandler,
  checkConfig,
  checkHandler,
  checkName,
  EMPTY_INPUT,
  invalidParams,
  type JsonSchema,
  pickMeta,
  type ServedSchema,
  serveSchema,
} from './schema.js';
import type { ToolMetadata } from './types.js';

/** A registered tool, as the server serves it. */
export interface ToolEntry {
  readonly name: string;
  readonly meta: ToolMetadata;
  readonly input: ServedSchema;
  readonly output: ServedSchema | undefined;
  /** What `tools/list` publishes: `input.json` and `output.json`. */
  readonly inputSchema: JsonSchema;
  readonly outputSchema: Record<string, unknown> | undefined;
  readonly plan: ResolverPlan | undefined;
  readonly handler: CheckedHandler;
  /** How the tool runs as a task, when it does (see `ToolConfig.task`). */
  readonly task: { readonly support: TaskSupport; readonly askFirst: readonly string[] } | undefined;
}

/** The members of a tool config that `handle.update()` may change. */
export const TOOL_META_KEYS = ['title', 'description', 'annotations', 'icons', '_meta'] as const;
const META_KEYS = TOOL_META_KEYS;
const CONFIG_KEYS: ReadonlySet<string> = new Set([...META_KEYS, 'input', 'output', 'resolve', 'task']);

/** Checks a tool registration and builds its entry (schemas published, resolver graph planned, once). */
export function toolEntry(
  name: unknown,
  config: unknown,
  handler: unknown,
  plan: ResolverPlanOptions = {},
): ToolEntry {
  checkName('tool', name);
  const owner = `tool '${name}'`;
  checkConfig(owner, config);
  const meta = pickMeta(owner, config, META_KEYS, CONFIG_KEYS) as ToolMetadata;
  const { input, output, resolve, task } = config;
  checkHandler(owner, handler);
  const served = input === undefined ? EMPTY_INPUT : serveSchema(input, 'input', `${owner}: "input"`);
  const result =
    output === undefined ? undefined : serveSchema(output, 'output', `${owner}: "output"`, false);
  const planned = planRegistration(owner, resolve, served.keys, plan);
  return {
    task: taskOf(owner, task, planned),
    name,
    meta,
    input: served,
    output: result,
    inputSchema: served.json as JsonSchema,
    outputSchema: result?.json,
    plan: planned,
    handler,
  };
}

/** Checks a tool's `task` setting: `'optional'`, `'required'` or `{ support, askFirst? }` naming resolvers. */
function taskOf(owner: string, task: unknown, plan: ResolverPlan | undefined): ToolEntry['task'] {
  if (task === undefined) return undefined;
  const { support, askFirst = [] } = (typeof task === 'string' ? { support: task } : (task ?? {})) as {
    support?: unknown;
    askFirst?: unknown;
  };
  if (support !== 'optional' && support !== 'required') {
    throw new TypeError(`${owner}: "task" expected 'optional', 'required' or { support, askFirst? }`);
  }
  if (!Array.isArray(askFirst) || askFirst.some((name) => !plan?.names.includes(name))) {
    const names = plan === undefined ? 'none' : plan.names.map((n) => `'${n}'`).join(', ');
    throw new TypeError(`${owner}: "task.askFirst" expected names from "resolve" (${names})`);
  }
  return { support, askFirst: [...askFirst] as string[] };
}

/**
 * The `before` step of a task tool with `askFirst`: one round of just those resolvers on the `tools/call`
 * itself. Their questions go back as an ordinary `InputRequiredResult`; once they are answered, the task starts
 * from this request's answers and state, so its first run consumes the same answers. Arguments that do not
 * validate start the task at once (its run answers with the `isError` result).
 */
export async function askFirst(
  entry: ToolEntry,
  params: CallToolRequestParams,
  ctx: RequestContext,
): Promise<InputRequiredResult | { inputResponses?: InputResponses; requestState?: string } | undefined> {
  const names = entry.task?.askFirst ?? [];
  if (names.length === 0) return undefined;
  const parsed = await validate(entry.input.standard, withoutResolved(params.arguments ?? {}, entry.plan));
  if (!parsed.ok) return undefined;
  const round = await runResolvers(
    entry.plan,
    withoutResolved(parsed.value as Record<string, unknown>, entry.plan),
    ctx,
    names,
  );
  return round.kind === 'input_required' ? round.result : undefined;
}

/**
 * The `validate` step of a task tool: its arguments checked against its input schema on the `tools/call` request,
 * before a task is stored. Invalid arguments are answered at once with the `isError` result the handler would
 * give, so a call that cannot run never becomes a task (nor stores its arguments).
 */
export async function validateTaskCall(
  entry: ToolEntry,
  params: CallToolRequestParams,
): Promise<HandlerResult<CallToolResult> | undefined> {
  const checked = validate(entry.input.standard, withoutResolved(params.arguments ?? {}, entry.plan));
  const parsed = checked instanceof Promise ? await checked : checked;
  if (parsed.ok) return undefined;
  return errorResult(
    `Invalid arguments for tool '${entry.name}': ${describeIssues(parsed.issues, 'arguments')}`,
  );
}

/** The tool as `tools/list` publishes it. */
export function describeTool(entry: ToolEntry): Tool {
  const tool: Tool = { name: entry.name, inputSchema: entry.inputSchema };
  const { title, description, annotations, icons, _meta } = entry.meta;
  if (title !== undefined) tool.title = title;
  if (description !== undefined) tool.description = description;
  if (entry.outputSchema !== undefined) tool.outputSchema = entry.outputSchema;
  if (annotations !== undefined) tool.annotations = annotations;
  if (icons !== undefined) tool.icons = icons;
  if (_meta !== undefined) tool._meta = _meta;
  return tool;
}

/** An `isError` result the model can read. */
export function errorResult(text: string): HandlerResult<CallToolResult> {
  return { content: [{ type: 'text', text }], isError: true };
}

const ONE_CHANNEL =
  'returned an InputRequiredResult but uses resolvers; a call has one input_required channel, so the ' +
  'multi-round flow is driven either by resolvers or by the handler, not both';

/**
 * Serves `tools/call`: unknown tool → `-32602`; invalid arguments, a declined elicitation and anything the
 * handler or a resolver throws (other than an `McpError`, sent as is) → an `isError` result; a thrown error's
 * text never reaches the client (it may hold internals: paths, byte counts, a stack overflow): the result says
 * `Tool '<name>' failed with an internal error` and the error goes to the logger. A tool that wants the model to
 * read a message returns `{ content, isError: true }` itself. Resolvers' questions → the
 * `InputRequiredResult`; a structured result is validated against the output schema (a mismatch is a server
 * bug: `-32603`, details in the log).
 */
export async function callTool(
  tools: Registry<ToolEntry>,
  params: CallToolRequestParams,
  ctx: RequestContext,
  warn: LogFn,
): Promise<HandlerResult<CallToolResult> | InputRequiredResult> {
  const entry = tools.get(params.name);
  if (entry === undefined) throw invalidParams(`Unknown tool: ${params.name}`);
  // A client-sent value under a resolved name is dropped before validation (a strict schema would reject it).
  // Each step awaits only what is a promise: a synchronous schema, handler or result costs no extra turn.
  const checked = validate(entry.input.standard, withoutResolved(params.arguments ?? {}, entry.plan));
  const parsed = checked instanceof Promise ? await checked : checked;
  if (!parsed.ok) {
    return errorResult(
      `Invalid arguments for tool '${entry.name}': ${describeIssues(parsed.issues, 'arguments')}`,
    );
  }
  const args = withoutResolved(parsed.value as Record<string, unknown>, entry.plan);
  let value: unknown;
  try {
    const pending = resolveRound(entry.plan, args, ctx);
    const round = pending instanceof Promise ? await pending : pending;
    if (round.kind === 'input_required') return round.result;
    value = entry.handler(args, round.values, ctx);
    if (isThenable(value)) value = await value;
  } catch (error) {
    if (error instanceof McpError) throw error;
    if (error instanceof ResolutionError) return errorResult(error.message);
    warn(`tool '${entry.name}' threw; the model gets an isError result`, { error });
    return errorResult(`Tool '${entry.name}' failed with an internal error`);
  }
  if (isInputRequired(value)) {
    if (entry.plan === undefined) return value;
    warn(`tool '${entry.name}' ${ONE_CHANNEL}`);
    return errorResult(`Tool '${entry.name}' ${ONE_CHANNEL}`);
  }
  return entry.output === undefined
    ? (value as HandlerResult<CallToolResult>)
    : await finishStructured(entry, value);
}

/** Validates `structuredContent` against the output schema and adds the JSON text block when `content` is absent. */
async function finishStructured(entry: ToolEntry, value: unknown): Promise<HandlerResult<CallToolResult>> {
  const result = value as HandlerResult<CallToolResult>;
  if (entry.output === undefined || typeof value !== 'object' || value === null || result.isError === true) {
    return result;
  }
  if (!('structuredContent' in result)) {
    throw new Error(`tool '${entry.name}' has an output schema but returned no structuredContent`);
  }
  const checked = await validate(entry.output.standard, result.structuredContent);
  if (!checked.ok) {
    throw new Error(
      `tool '${entry.name}' returned structuredContent that does not match its output schema: ${describeIssues(checked.issues, 'structuredContent')}`,
    );
  }
  const structuredContent = checked.value;
  const content = result.content ?? [{ type: 'text', text: JSON.stringify(structuredContent) }];
  return { ...result, structuredContent, content };
}
