// Hand-written acceptance checks for the messages of every multi-round-trip request. Each check accepts only
// values its zod schema accepts (property tests pin that), and declines anything it is not sure about, which then
// goes to zod; so the verdict, and the issues of a rejection, are always zod's.
import { isImplementation } from './checks/content.js';
import { isElicitResult } from './checks/input-requests.js';
import { isCallToolResult } from './checks/results.js';
import { isInputRequests, isInputRequiredResult } from './checks/round.js';
import {
  type Check,
  isInt,
  isObject,
  isOpenObject,
  isRecord,
  isSettingsMap,
  isString,
  isStringRecord,
  optional,
  optionalString,
} from './checks/shapes.js';
import { isLoggingLevel } from './constants.js';
import {
  CallToolRequestParamsSchema,
  CallToolResultSchema,
  ElicitResultSchema,
  GetPromptRequestParamsSchema,
  ImplementationSchema,
  InputRequestsSchema,
  InputRequiredResultSchema,
  InputResponsesSchema,
  ReadResourceRequestParamsSchema,
  RequestParamsSchema,
} from './schema/index.js';

/** What {@link safeParse} needs of a schema: zod's non-throwing parse. */
export interface SafeParser {
  safeParse(value: unknown): { readonly success: boolean };
}

/**
 * `schema.safeParse(value)`, sped up for the messages every multi-round-trip request carries: `tools/call`,
 * `prompts/get` and `resources/read` params, `InputRequiredResult`, `CallToolResult`, `InputRequests`,
 * `InputResponses` and `ElicitResult` (plus the bare `RequestParams` and `Implementation`). A hand-written check runs first; when it
 * accepts, the result is `{ success: true, data: value }` (the input itself: for JSON data, equal to zod's output
 * up to member order); otherwise, and for every other schema, it is zod's own result. The checks only ever
 * accept what zod accepts (members named `__proto__`, unusual prototypes and rarer shapes all go to zod), so the
 * verdict and the issues of a rejection are always zod's.
 */
export function safeParse<S extends SafeParser>(schema: S, value: unknown): ReturnType<S['safeParse']> {
  const accepts = checks().get(schema);
  if (accepts?.(value)) return { success: true, data: value } as ReturnType<S['safeParse']>;
  return schema.safeParse(value) as ReturnType<S['safeParse']>;
}

/** @internal The schemas that have a hand-written check (their tests pit each against zod). */
export function fastCheckedSchemas(): readonly SafeParser[] {
  return [...checks().keys()] as SafeParser[];
}

let table: Map<unknown, Check> | undefined;

/** The checks by schema, built on first use. */
function checks(): Map<unknown, Check> {
  table ??= new Map<unknown, Check>([
    [RequestParamsSchema, (v) => isObject(v) && isRequestMeta(v._meta)],
    [ImplementationSchema, isImplementation],
    [CallToolRequestParamsSchema, isCallToolParams],
    [GetPromptRequestParamsSchema, isGetPromptParams],
    [ReadResourceRequestParamsSchema, isReadResourceParams],
    [InputResponsesSchema, isInputResponses],
    [ElicitResultSchema, isElicitResult],
    [InputRequestsSchema, isInputRequests],
    [InputRequiredResultSchema, isInputRequiredResult],
    [CallToolResultSchema, isCallToolResult],
  ]);
  return table;
}

// --- _meta

/** `ClientCapabilitiesSchema`. */
function isClientCapabilities(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { experimental, roots, sampling, elicitation, extensions } = value;
  return (
    optional(experimental, isSettingsMap) &&
    optional(extensions, isSettingsMap) &&
    optional(roots, isOpenObject) &&
    optional(sampling, isSamplingCapability) &&
    optional(elicitation, isElicitationCapability)
  );
}

const isSamplingCapability = (value: unknown): boolean =>
  isObject(value) && optional(value.context, isOpenObject) && optional(value.tools, isOpenObject);

const isElicitationCapability = (value: unknown): boolean =>
  isObject(value) && optional(value.form, isOpenObject) && optional(value.url, isOpenObject);

/** `RequestMetaObjectSchema`. */
function isRequestMeta(value: unknown): boolean {
  if (!isObject(value)) return false;
  const progressToken = value.progressToken;
  return (
    isString(value['io.modelcontextprotocol/protocolVersion']) &&
    isClientCapabilities(value['io.modelcontextprotocol/clientCapabilities']) &&
    optional(value['io.modelcontextprotocol/clientInfo'], isImplementation) &&
    optional(value['io.modelcontextprotocol/logLevel'], isLoggingLevel) &&
    (progressToken === undefined || isString(progressToken) || isInt(progressToken))
  );
}

// --- request params of the three multi-round-trip methods

/** `InputResponsesSchema`, for elicitation answers (other answers go to zod). */
const isInputResponses = (value: unknown): boolean => isRecord(value, isElicitResult);

/** What `InputResponseRequestParamsSchema` adds to every request's params. */
const isRetryParams = (value: Record<string, unknown>): boolean =>
  isRequestMeta(value._meta) &&
  optionalString(value.requestState) &&
  optional(value.inputResponses, isInputResponses);

function isCallToolParams(value: unknown): boolean {
  return (
    isObject(value) && isString(value.name) && optional(value.arguments, isOpenObject) && isRetryParams(value)
  );
}

function isGetPromptParams(value: unknown): boolean {
  return (
    isObject(value) &&
    isString(value.name) &&
    optional(value.arguments, isStringRecord) &&
    isRetryParams(value)
  );
}

const isReadResourceParams = (value: unknown): boolean =>
  isObject(value) && isString(value.uri) && isRetryParams(value);
