import {
  describeIssues,
  type GetPromptRequestParams,
  type GetPromptResult,
  type InputRequiredResult,
  isInputRequired,
  isStandardSchemaV1,
  type Prompt,
  type PromptArgument,
  validate,
} from '@boomerang/protocol';
import type { HandlerResult, RequestContext } from '@boomerang/server';
import type { Registry } from './registry.js';
import {
  planRegistration,
  ResolutionError,
  type ResolverPlan,
  type ResolverPlanOptions,
  runResolvers,
  withoutResolved,
} from './resolvers/index.js';
import {
  type CheckedHandler,
  checkConfig,
  checkHandler,
  checkName,
  EMPTY_INPUT,
  invalidParams,
  pickMeta,
  type ServedSchema,
  serveSchema,
} from './schema.js';
import type { Completer, PromptMetadata } from './types.js';

/** A registered prompt, as the server serves it. */
export interface PromptEntry {
  readonly name: string;
  readonly meta: PromptMetadata;
  readonly input: ServedSchema;
  readonly arguments: PromptArgument[];
  readonly complete: Readonly<Record<string, Completer>>;
  readonly plan: ResolverPlan | undefined;
  readonly handler: CheckedHandler;
}

/** The members of a prompt config that `handle.update()` may change. */
export const PROMPT_META_KEYS = ['title', 'description', 'icons', '_meta'] as const;
const META_KEYS = PROMPT_META_KEYS;
const CONFIG_KEYS: ReadonlySet<string> = new Set([...META_KEYS, 'input', 'resolve', 'complete']);

/** Checks completers: an object of functions whose names are arguments (or template variables). */
export function checkCompleters(
  owner: string,
  complete: unknown,
  names: readonly string[],
): Record<string, Completer> {
  if (complete === undefined) return {};
  if (typeof complete !== 'object' || complete === null)
    throw new TypeError(`${owner}: "complete" expected an object`);
  for (const [name, fn] of Object.entries(complete)) {
    if (!names.includes(name)) throw new TypeError(`${owner}: "complete" names unknown argument '${name}'`);
    if (typeof fn !== 'function') throw new TypeError(`${owner}: "complete.${name}" expected a function`);
  }
  return complete as Record<string, Completer>;
}

/**
 * The prompt's `arguments`, from the input's JSON Schema: names, `required`, and titles and descriptions (zod's
 * `.describe()`/`.meta()`, valibot's `title()`/`description()`, a raw schema's own).
 */
function promptArguments(schema: Record<string, unknown>): PromptArgument[] {
  const properties = (schema.properties ?? {}) as Record<string, { description?: unknown; title?: unknown }>;
  const required = new Set<unknown>(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(properties).map(([name, property]) => {
    const argument: PromptArgument = { name, required: required.has(name) };
    if (typeof property.title === 'string') argument.title = property.title;
    if (typeof property.description === 'string') argument.description = property.description;
    return argument;
  });
}

/**
 * A raw JSON Schema's properties must accept strings (prompt arguments are strings on the wire): a property
 * whose `type` names no `string` could never be satisfied. (A Standard Schema's types are checked at compile time
 * by `PromptInputCheck`; its JSON Schema shows what it converts to, not what it accepts.)
 */
function checkStringArguments(owner: string, json: Record<string, unknown>): void {
  const properties = (json.properties ?? {}) as Record<string, unknown>;
  for (const [name, property] of Object.entries(properties)) {
    const type =
      typeof property === 'object' && property !== null && 'type' in property ? property.type : undefined;
    const types = Array.isArray(type) ? type : [type];
    if (type !== undefined && !types.includes('string')) {
      throw new TypeError(
        `${owner}: prompt argument '${name}' must accept a string (arguments are strings on the wire), got type ${JSON.stringify(type)}`,
      );
    }
  }
}

/** Checks a prompt registration and builds its entry. */
export function promptEntry(
  name: unknown,
  config: unknown,
  handler: unknown,
  plan: ResolverPlanOptions = {},
): PromptEntry {
  checkName('prompt', name);
  const owner = `prompt '${name}'`;
  checkConfig(owner, config);
  const meta = pickMeta(owner, config, META_KEYS, CONFIG_KEYS) as PromptMetadata;
  const { input, resolve, complete } = config;
  checkHandler(owner, handler);
  const served = input === undefined ? EMPTY_INPUT : serveSchema(input, 'input', `${owner}: "input"`);
  if (input !== undefined && !isStandardSchemaV1(input)) checkStringArguments(owner, served.json);
  const keys = served.keys;
  return {
    name,
    meta,
    input: served,
    arguments: promptArguments(served.json),
    complete: checkCompleters(owner, complete, keys),
    plan: planRegistration(owner, resolve, keys, plan),
    handler,
  };
}

/** The prompt as `prompts/list` publishes it. */
export function describePrompt(entry: PromptEntry): Prompt {
  const prompt: Prompt = { name: entry.name };
  const { title, description, icons, _meta } = entry.meta;
  if (title !== undefined) prompt.title = title;
  if (description !== undefined) prompt.description = description;
  if (entry.arguments.length > 0) prompt.arguments = entry.arguments;
  if (icons !== undefined) prompt.icons = icons;
  if (_meta !== undefined) prompt._meta = _meta;
  return prompt;
}

/**
 * Serves `prompts/get`: unknown prompt or invalid arguments → `-32602`; a declined or cancelled elicitation
 * consumed unwrapped → `-32602` with the resolver's message (the request cannot be served with the answers it
 * carries; a prompt has no `isError` result); a resolver prompt returning an `InputRequiredResult` → `-32603`.
 */
export async function getPrompt(
  prompts: Registry<PromptEntry>,
  params: GetPromptRequestParams,
  ctx: RequestContext,
): Promise<HandlerResult<GetPromptResult> | InputRequiredResult> {
  const entry = prompts.get(params.name);
  if (entry === undefined) throw invalidParams(`Unknown prompt: ${params.name}`);
  // A client-sent value under a resolved name is dropped before validation (a strict schema would reject it).
  const parsed = await validate(entry.input.standard, withoutResolved(params.arguments ?? {}, entry.plan));
  if (!parsed.ok) {
    throw invalidParams(
      `Invalid arguments for prompt '${entry.name}': ${describeIssues(parsed.issues, 'arguments')}`,
    );
  }
  const args = withoutResolved(parsed.value as Record<string, unknown>, entry.plan);
  const round = await runResolvers(entry.plan, args, ctx).catch(rethrowResolution);
  if (round.kind === 'input_required') return round.result;
  const value = await entry.handler(args, round.values, ctx);
  if (isInputRequired(value) && entry.plan !== undefined) {
    throw new Error(`prompt '${entry.name}' returned an InputRequiredResult but uses resolvers`);
  }
  return value as HandlerResult<GetPromptResult> | InputRequiredResult;
}

/** A `ResolutionError` (declined / cancelled) becomes `-32602` with its message; anything else is rethrown. */
export function rethrowResolution(error: unknown): never {
  if (error instanceof ResolutionError) throw invalidParams(error.message);
  throw error;
}
