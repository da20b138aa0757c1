// Hand-written checks for the things results are made of: implementations and icons, content blocks, resource
// contents, and the tools, prompts, resources and templates that lists carry. Each stands for the zod schema of
// the same name (schema/base.ts, content.ts, tools.ts, prompts.ts, resources.ts) and accepts only what it
// accepts (checks.test.ts pits them against each other).
import {
  type Check,
  isArrayOf,
  isBoolean,
  isFiniteNumber,
  isInt,
  isObject,
  isOpenObject,
  isString,
  isStringArray,
  optional,
  optionalString,
} from './shapes.js';

/** `RoleSchema`. */
export const isRole = (value: unknown): boolean => value === 'user' || value === 'assistant';

/** `IconSchema`. */
function isIcon(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { theme } = value;
  return (
    isString(value.src) &&
    optionalString(value.mimeType) &&
    optional(value.sizes, isStringArray) &&
    (theme === undefined || theme === 'light' || theme === 'dark')
  );
}

/** `z.array(IconSchema)`: the `icons` member of named things. */
const isIcons = (value: unknown): boolean => isArrayOf(value, isIcon);

/** `ImplementationSchema` (clientInfo / serverInfo). */
export function isImplementation(value: unknown): boolean {
  return (
    isObject(value) &&
    isString(value.name) &&
    isString(value.version) &&
    optionalString(value.title) &&
    optionalString(value.description) &&
    optionalString(value.websiteUrl) &&
    optional(value.icons, isIcons)
  );
}

/** `ResultMetaObjectSchema`. */
export const isResultMeta = (value: unknown): boolean =>
  isObject(value) && optional(value['io.modelcontextprotocol/serverInfo'], isImplementation);

/** `AnnotationsSchema`: `priority` is a number in [0, 1]. */
function isAnnotations(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { priority } = value;
  return (
    optional(value.audience, (audience) => isArrayOf(audience, isRole)) &&
    (priority === undefined || (isFiniteNumber(priority) && priority >= 0 && priority <= 1)) &&
    optionalString(value.lastModified)
  );
}

/** The optional `annotations` and `_meta` of content blocks, resources and templates. */
const hasAnnotationsAndMeta = (value: Record<string, unknown>): boolean =>
  optional(value.annotations, isAnnotations) && optional(value._meta, isOpenObject);

/** Text, image and audio blocks (`TextContentSchema`, `ImageContentSchema`, `AudioContentSchema`), by `type`. */
export function isMediaContent(value: Record<string, unknown>): boolean {
  switch (value.type) {
    case 'text':
      return isString(value.text) && hasAnnotationsAndMeta(value);
    case 'image':
    case 'audio':
      return isString(value.data) && isString(value.mimeType) && hasAnnotationsAndMeta(value);
    default:
      return false;
  }
}

/** `ContentBlockSchema`: text, image, audio, `resource_link` or embedded `resource`, by `type`. */
export function isContentBlock(value: unknown): boolean {
  if (!isObject(value)) return false;
  switch (value.type) {
    case 'resource_link':
      return isResource(value);
    case 'resource':
      return isResourceContents(value.resource) && hasAnnotationsAndMeta(value);
    default:
      return isMediaContent(value);
  }
}

/** `z.array(ContentBlockSchema)`. */
export const isContentBlocks = (value: unknown): boolean => isArrayOf(value, isContentBlock);

/** Text or blob resource contents (`TextResourceContentsSchema` | `BlobResourceContentsSchema`). */
export function isResourceContents(value: unknown): boolean {
  return (
    isObject(value) &&
    isString(value.uri) &&
    optionalString(value.mimeType) &&
    optional(value._meta, isOpenObject) &&
    (isString(value.text) || isString(value.blob))
  );
}

/** `name`, `title?` and `icons?`: what tools, prompts, resources and templates share (`BaseMetadataSchema`). */
const isNamed = (value: Record<string, unknown>): boolean =>
  isString(value.name) && optionalString(value.title) && optional(value.icons, isIcons);

/** `ResourceSchema` (and `ResourceLinkSchema`, which adds its `type`). */
export function isResource(value: unknown): boolean {
  return (
    isObject(value) &&
    isNamed(value) &&
    isString(value.uri) &&
    optionalString(value.description) &&
    optionalString(value.mimeType) &&
    optional(value.size, isInt) &&
    hasAnnotationsAndMeta(value)
  );
}

/** `ResourceTemplateSchema`. */
export function isResourceTemplate(value: unknown): boolean {
  return (
    isObject(value) &&
    isNamed(value) &&
    isString(value.uriTemplate) &&
    optionalString(value.description) &&
    optionalString(value.mimeType) &&
    hasAnnotationsAndMeta(value)
  );
}

/** `ToolAnnotationsSchema`. */
function isToolAnnotations(value: unknown): boolean {
  return (
    isObject(value) &&
    optionalString(value.title) &&
    optional(value.readOnlyHint, isBoolean) &&
    optional(value.destructiveHint, isBoolean) &&
    optional(value.idempotentHint, isBoolean) &&
    optional(value.openWorldHint, isBoolean)
  );
}

/** A JSON Schema object as tools carry them: members other than `$schema` pass as they are. */
const isJsonSchemaObject = (value: unknown): value is Record<string, unknown> =>
  isObject(value) && optionalString(value.$schema);

/** `ToolSchema`: `inputSchema` has `type: "object"` at its root. */
export function isTool(value: unknown): boolean {
  if (!isObject(value)) return false;
  const input = value.inputSchema;
  return (
    isNamed(value) &&
    optionalString(value.description) &&
    isJsonSchemaObject(input) &&
    input.type === 'object' &&
    optional(value.outputSchema, isJsonSchemaObject) &&
    optional(value.annotations, isToolAnnotations) &&
    optional(value._meta, isOpenObject)
  );
}

/** `PromptArgumentSchema`. */
function isPromptArgument(value: unknown): boolean {
  return (
    isObject(value) &&
    isString(value.name) &&
    optionalString(value.title) &&
    optionalString(value.description) &&
    optional(value.required, isBoolean)
  );
}

/** `PromptSchema`. */
export function isPrompt(value: unknown): boolean {
  return (
    isObject(value) &&
    isNamed(value) &&
    optionalString(value.description) &&
    optional(value.arguments, (args) => isArrayOf(args, isPromptArgument)) &&
    optional(value._meta, isOpenObject)
  );
}

/** `PromptMessageSchema`: a role and one content block. */
export const isPromptMessage: Check = (value) =>
  isObject(value) && isRole(value.role) && isContentBlock(value.content);
