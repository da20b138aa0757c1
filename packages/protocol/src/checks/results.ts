// Hand-written checks for the complete result of each method a client sends (schema/discover.ts, tools.ts,
// tools-call.ts, prompts.ts, resources.ts, completion.ts), after the client's normalisation (`resultType`
// present). Each accepts only what the zod schema of the same name accepts (checks.test.ts pits them against
// each other).
import {
  isContentBlocks,
  isPrompt,
  isPromptMessage,
  isResource,
  isResourceContents,
  isResourceTemplate,
  isResultMeta,
  isTool,
} from './content.js';
import {
  type Check,
  isArrayOf,
  isBoolean,
  isInt,
  isObject,
  isOpenObject,
  isSettingsMap,
  isStringArray,
  optional,
  optionalString,
} from './shapes.js';

/** `resultType: "complete"` and the optional result `_meta` (`completeResult` in schema/meta.ts). */
function isComplete(value: unknown): value is Record<string, unknown> {
  return isObject(value) && value.resultType === 'complete' && optional(value._meta, isResultMeta);
}

/** `ttlMs` (an integer ≥ 0) and `cacheScope` of a cacheable result (`cacheableResult`). */
function isCacheable(value: unknown): value is Record<string, unknown> {
  if (!isComplete(value)) return false;
  const { ttlMs, cacheScope } = value;
  return isInt(ttlMs) && ttlMs >= 0 && (cacheScope === 'public' || cacheScope === 'private');
}

/** A page of `member`s under `key`, cacheable, with an optional `nextCursor` (`cacheableListResult`). */
const page =
  (key: string, member: Check): Check =>
  (value) =>
    isCacheable(value) && optionalString(value.nextCursor) && isArrayOf(value[key], member);

/** `{ listChanged? }`. */
const isListChangedFeature = (value: unknown): boolean =>
  isObject(value) && optional(value.listChanged, isBoolean);

/** `ServerCapabilitiesSchema`. */
function isServerCapabilities(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { resources } = value;
  return (
    optional(value.experimental, isSettingsMap) &&
    optional(value.extensions, isSettingsMap) &&
    optional(value.logging, isOpenObject) &&
    optional(value.completions, isOpenObject) &&
    optional(value.prompts, isListChangedFeature) &&
    optional(value.tools, isListChangedFeature) &&
    (resources === undefined ||
      (isObject(resources) &&
        optional(resources.subscribe, isBoolean) &&
        optional(resources.listChanged, isBoolean)))
  );
}

/** `DiscoverResultSchema`. */
export const isDiscoverResult: Check = (value) =>
  isCacheable(value) &&
  isStringArray(value.supportedVersions) &&
  isServerCapabilities(value.capabilities) &&
  optionalString(value.instructions);

/** `ListToolsResultSchema`. */
export const isListToolsResult = page('tools', isTool);
/** `ListPromptsResultSchema`. */
export const isListPromptsResult = page('prompts', isPrompt);
/** `ListResourcesResultSchema`. */
export const isListResourcesResult = page('resources', isResource);
/** `ListResourceTemplatesResultSchema`. */
export const isListResourceTemplatesResult = page('resourceTemplates', isResourceTemplate);

/** `CallToolResultSchema`: content blocks, any `structuredContent`, `isError?`. */
export const isCallToolResult: Check = (value) =>
  isComplete(value) && isContentBlocks(value.content) && optional(value.isError, isBoolean);

/** `GetPromptResultSchema`. */
export const isGetPromptResult: Check = (value) =>
  isComplete(value) && optionalString(value.description) && isArrayOf(value.messages, isPromptMessage);

/** `ReadResourceResultSchema`. */
export const isReadResourceResult: Check = (value) =>
  isCacheable(value) && isArrayOf(value.contents, isResourceContents);

/** `CompleteResultSchema`: at most 100 `values`. */
export function isCompleteResult(value: unknown): boolean {
  if (!isComplete(value)) return false;
  const { completion } = value;
  return (
    isObject(completion) &&
    isStringArray(completion.values) &&
    (completion.values as unknown[]).length <= 100 &&
    optional(completion.total, isInt) &&
    optional(completion.hasMore, isBoolean)
  );
}
