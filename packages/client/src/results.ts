import {
  type CallToolResult,
  CallToolResultSchema,
  type CompleteResult,
  CompleteResultSchema,
  type DiscoverResult,
  DiscoverResultSchema,
  type GetPromptResult,
  GetPromptResultSchema,
  type InputRequiredMethod,
  type InputRequiredResult,
  InputRequiredResultSchema,
  isInputRequiredMethod,
  type ListPromptsResult,
  ListPromptsResultSchema,
  type ListResourcesResult,
  ListResourcesResultSchema,
  type ListResourceTemplatesResult,
  ListResourceTemplatesResultSchema,
  type ListToolsResult,
  ListToolsResultSchema,
  normalizeResult,
  type ReadResourceResult,
  ReadResourceResultSchema,
  resultTypeOf,
  safeParse,
} from '@boomerang/protocol';
import { invalidResult } from './errors.js';

/** The complete result of each method a client sends. */
export interface ResultByMethod {
  'server/discover': DiscoverResult;
  'tools/list': ListToolsResult;
  'tools/call': CallToolResult;
  'prompts/list': ListPromptsResult;
  'prompts/get': GetPromptResult;
  'resources/list': ListResourcesResult;
  'resources/templates/list': ListResourceTemplatesResult;
  'resources/read': ReadResourceResult;
  'completion/complete': CompleteResult;
}

/** A method this client sends. */
export type ClientMethod = keyof ResultByMethod;

/** What a method may answer: its complete result, or for the three MRTR methods an `InputRequiredResult`. */
export type AnswerOf<M extends ClientMethod> = M extends InputRequiredMethod
  ? ResultByMethod[M] | InputRequiredResult
  : ResultByMethod[M];

/** The part of a zod schema this module uses (the client does not depend on zod itself). */
interface Parser<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: unknown };
}

const SCHEMAS: { readonly [M in ClientMethod]: Parser<ResultByMethod[M]> } = {
  'server/discover': DiscoverResultSchema,
  'tools/list': ListToolsResultSchema,
  'tools/call': CallToolResultSchema,
  'prompts/list': ListPromptsResultSchema,
  'prompts/get': GetPromptResultSchema,
  'resources/list': ListResourcesResultSchema,
  'resources/templates/list': ListResourceTemplatesResultSchema,
  'resources/read': ReadResourceResultSchema,
  'completion/complete': CompleteResultSchema,
};

/**
 * Reads the raw `result` of a `method` response the way the spec asks a client to: normalise first (a missing
 * `resultType` is `"complete"`, for servers of earlier revisions), then validate with the protocol schema chosen
 * by `resultType`. Throws an `invalid-result` `ClientError` for an unknown `resultType`, for `input_required` on a method
 * other than `tools/call`, `prompts/get` and `resources/read`, for an `InputRequiredResult` that asks nothing and
 * carries no state (spec S5: retrying it could only loop), and for a shape the schema rejects.
 */
export function parseResult<M extends ClientMethod>(method: M, raw: unknown): AnswerOf<M> {
  const result = normalizeResult(raw);
  const kind = resultTypeOf(result);
  if (kind === 'invalid') {
    const type =
      typeof result === 'object' && result !== null
        ? (result as { resultType?: unknown }).resultType
        : result;
    throw invalidResult(method, `unknown resultType ${JSON.stringify(type) ?? String(type)}`, result);
  }
  if (kind === 'complete') return validate(method, SCHEMAS[method], 'the result', result) as AnswerOf<M>;
  if (!isInputRequiredMethod(method)) {
    throw invalidResult(
      method,
      'resultType "input_required" is only allowed on tools/call, prompts/get and resources/read',
      result,
    );
  }
  const irr = validate(method, InputRequiredResultSchema, 'the InputRequiredResult', result);
  const asks = irr.inputRequests !== undefined && Object.keys(irr.inputRequests).length > 0;
  if (!asks && irr.requestState === undefined) {
    throw invalidResult(method, 'an InputRequiredResult needs inputRequests or requestState', result);
  }
  return irr as AnswerOf<M>;
}

function validate<T>(method: string, schema: Parser<T>, what: string, result: unknown): T {
  const parsed = safeParse(schema, result);
  if (parsed.success) return parsed.data;
  const issue = (parsed.error as { issues?: readonly { path?: readonly PropertyKey[]; message?: string }[] })
    .issues?.[0];
  const where = issue?.path?.length ? `${issue.path.map(String).join('.')}: ` : '';
  const detail = issue?.message === undefined ? '' : ` (${where}${issue.message})`;
  throw invalidResult(method, `${what} does not match its schema${detail}`, result, parsed.error);
}
