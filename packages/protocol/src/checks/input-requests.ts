// Hand-written checks for each kind of input request a round may embed (elicitation, sampling, roots;
// schema/elicitation.ts, sampling.ts, roots.ts): its params, and the answer a client gives. Each kind's row
// (input-request-kinds.ts) names them; round.ts checks the round itself. Each accepts only what the zod schema of
// the same name accepts (checks.test.ts pits them against each other).
import { isContentBlocks, isMediaContent, isRole, isTool } from './content.js';
import {
  type Check,
  isArrayOf,
  isBoolean,
  isFiniteNumber,
  isInt,
  isObject,
  isOpenObject,
  isRecord,
  isString,
  isStringArray,
  optional,
  optionalString,
} from './shapes.js';

// --- elicitation

/** `{ const, title }`: one option of a titled enum. */
const isTitledOption = (value: unknown): boolean =>
  isObject(value) && isString(value.const) && isString(value.title);

const isTitledOptions = (value: unknown): boolean => isArrayOf(value, isTitledOption);

/**
 * `PrimitiveSchemaDefinitionSchema`, a union whose members are loose objects: a field passes when any member
 * would take it. `type: "string"` is a text field or one of the single-choice fields (untitled, titled, legacy:
 * the legacy one only adds an optional member to the untitled one); `"array"` a multiple-choice field.
 */
function isPrimitiveField(value: unknown): boolean {
  if (!isObject(value) || !optionalString(value.title) || !optionalString(value.description)) return false;
  switch (value.type) {
    case 'string':
      return (
        optionalString(value.default) &&
        ((optional(value.minLength, isInt) &&
          optional(value.maxLength, isInt) &&
          (value.format === undefined ||
            value.format === 'email' ||
            value.format === 'uri' ||
            value.format === 'date' ||
            value.format === 'date-time')) ||
          isStringArray(value.enum) ||
          isTitledOptions(value.oneOf))
      );
    case 'number':
    case 'integer':
      return (
        optional(value.minimum, isFiniteNumber) &&
        optional(value.maximum, isFiniteNumber) &&
        optional(value.default, isFiniteNumber)
      );
    case 'boolean':
      return optional(value.default, isBoolean);
    case 'array': {
      const { items } = value;
      return (
        optional(value.minItems, isInt) &&
        optional(value.maxItems, isInt) &&
        optional(value.default, isStringArray) &&
        isObject(items) &&
        ((items.type === 'string' && isStringArray(items.enum)) || isTitledOptions(items.anyOf))
      );
    }
    default:
      return false;
  }
}

/** Form or URL `ElicitRequestParamsSchema` (an absent `mode` is the form, as in zod's discriminated union). */
export function isElicitParams(value: unknown): boolean {
  if (!isObject(value) || !isString(value.message)) return false;
  if (value.mode === 'url') return isString(value.url);
  if (value.mode !== undefined && value.mode !== 'form') return false;
  const schema = value.requestedSchema;
  return (
    isObject(schema) &&
    schema.type === 'object' &&
    optionalString(schema.$schema) &&
    isRecord(schema.properties, isPrimitiveField) &&
    optional(schema.required, isStringArray)
  );
}

/** `ElicitResultSchema`: `action`, and form `content` of strings, finite numbers, booleans and string lists. */
export function isElicitResult(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { action } = value;
  return (
    (action === 'accept' || action === 'decline' || action === 'cancel') &&
    optional(value.content, isElicitContent)
  );
}

const isElicitContent = (value: unknown): boolean => isRecord(value, isElicitValue);

const isElicitValue = (value: unknown): boolean =>
  isString(value) || isFiniteNumber(value) || isBoolean(value) || isStringArray(value);

// --- sampling

/** `SamplingMessageContentBlockSchema`: text, image, audio, `tool_use` or `tool_result`, by `type`. */
function isSamplingBlock(value: unknown): boolean {
  if (!isObject(value)) return false;
  switch (value.type) {
    case 'tool_use':
      return (
        isString(value.id) &&
        isString(value.name) &&
        isOpenObject(value.input) &&
        optional(value._meta, isOpenObject)
      );
    case 'tool_result':
      return (
        isString(value.toolUseId) &&
        isContentBlocks(value.content) &&
        optional(value.isError, isBoolean) &&
        optional(value._meta, isOpenObject)
      );
    default:
      return isMediaContent(value);
  }
}

/** `SamplingMessageSchema`'s members: a role and one block or a list of blocks. */
const isSamplingMessageIn = (value: Record<string, unknown>): boolean =>
  isRole(value.role) &&
  (isSamplingBlock(value.content) || isArrayOf(value.content, isSamplingBlock)) &&
  optional(value._meta, isOpenObject);

const isSamplingMessage = (value: unknown): boolean => isObject(value) && isSamplingMessageIn(value);

/** A number in [0, 1]: the priorities of `ModelPreferencesSchema`. */
const isUnit = (value: unknown): boolean => isFiniteNumber(value) && value >= 0 && value <= 1;

/** `ModelPreferencesSchema`. */
function isModelPreferences(value: unknown): boolean {
  return (
    isObject(value) &&
    optional(value.hints, (hints) =>
      isArrayOf(hints, (hint) => isObject(hint) && optionalString(hint.name)),
    ) &&
    optional(value.costPriority, isUnit) &&
    optional(value.speedPriority, isUnit) &&
    optional(value.intelligencePriority, isUnit)
  );
}

/** `CreateMessageRequestParamsSchema`. */
export function isCreateMessageParams(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { includeContext, toolChoice } = value;
  return (
    isArrayOf(value.messages, isSamplingMessage) &&
    isInt(value.maxTokens) &&
    optional(value.modelPreferences, isModelPreferences) &&
    optionalString(value.systemPrompt) &&
    (includeContext === undefined ||
      includeContext === 'none' ||
      includeContext === 'thisServer' ||
      includeContext === 'allServers') &&
    optional(value.temperature, isFiniteNumber) &&
    optional(value.stopSequences, isStringArray) &&
    optional(value.metadata, isOpenObject) &&
    optional(value.tools, (tools) => isArrayOf(tools, isTool)) &&
    (toolChoice === undefined ||
      (isObject(toolChoice) &&
        (toolChoice.mode === undefined ||
          toolChoice.mode === 'auto' ||
          toolChoice.mode === 'required' ||
          toolChoice.mode === 'none')))
  );
}

/** `CreateMessageResultSchema`: the sampled message, its `model`, and `stopReason?`. */
export const isCreateMessageResult: Check = (value) =>
  isObject(value) && isSamplingMessageIn(value) && isString(value.model) && optionalString(value.stopReason);

// --- roots

/** The optional params of `ListRootsRequestSchema`: nothing but `_meta`. */
export const isListRootsParams: Check = (value) =>
  value === undefined || (isObject(value) && optional(value._meta, isOpenObject));

/** `ListRootsResultSchema`. */
export const isListRootsResult: Check = (value) =>
  isObject(value) &&
  isArrayOf(
    value.roots,
    (root) =>
      isObject(root) && isString(root.uri) && optionalString(root.name) && optional(root._meta, isOpenObject),
  );
