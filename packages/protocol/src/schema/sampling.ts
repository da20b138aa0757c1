// `sampling/createMessage`: an LLM completion the server asks the client for (as an MRTR input request).
// Deprecated in 2026-07-28 (SEP-2577); kept for at least twelve months.
import type { z } from 'zod';
import { MetaObjectSchema, openObject, RoleSchema } from './base.js';
import { AudioContentSchema, ContentBlockSchema, ImageContentSchema, TextContentSchema } from './content.js';
import { ToolSchema } from './tools.js';
import { lazySchema, zod } from './zod.js';

/** The model asks to call a tool; `id` pairs it with the `ToolResultContent` that answers it. */
export const ToolUseContentSchema = lazySchema(() =>
  zod.looseObject({
    type: zod.literal('tool_use'),
    id: zod.string(),
    name: zod.string(),
    input: openObject,
    _meta: MetaObjectSchema.optional(),
  }),
);
/** The model asks to call a tool. */
export type ToolUseContent = z.infer<typeof ToolUseContentSchema>;

/** The result of a tool use, sent back to the model; `toolUseId` names the `ToolUseContent` it answers. */
export const ToolResultContentSchema = lazySchema(() =>
  zod.looseObject({
    type: zod.literal('tool_result'),
    toolUseId: zod.string(),
    content: zod.array(ContentBlockSchema),
    structuredContent: zod.unknown().optional(),
    isError: zod.boolean().optional(),
    _meta: MetaObjectSchema.optional(),
  }),
);
/** The result of a tool use. */
export type ToolResultContent = z.infer<typeof ToolResultContentSchema>;

/** One block of a sampling message, discriminated by `type`. */
export const SamplingMessageContentBlockSchema = lazySchema(() =>
  zod.discriminatedUnion('type', [
    TextContentSchema,
    ImageContentSchema,
    AudioContentSchema,
    ToolUseContentSchema,
    ToolResultContentSchema,
  ]),
);
/** One block of a sampling message. */
export type SamplingMessageContentBlock = z.infer<typeof SamplingMessageContentBlockSchema>;

/** A message to or from an LLM: a role and one block or a list of blocks. */
export const SamplingMessageSchema = lazySchema(() =>
  zod.looseObject({
    role: RoleSchema,
    content: zod.union([SamplingMessageContentBlockSchema, zod.array(SamplingMessageContentBlockSchema)]),
    _meta: MetaObjectSchema.optional(),
  }),
);
/** A message to or from an LLM. */
export type SamplingMessage = z.infer<typeof SamplingMessageSchema>;

/** A model-name hint; clients treat `name` as a substring and may map it to another provider's model. */
export const ModelHintSchema = lazySchema(() =>
  zod.looseObject({
    name: zod.string().optional(),
  }),
);
/** A model-name hint. */
export type ModelHint = z.infer<typeof ModelHintSchema>;

/** Advisory model preferences: ordered hints and cost/speed/intelligence priorities in [0, 1]. */
export const ModelPreferencesSchema = lazySchema(() =>
  zod.looseObject({
    hints: zod.array(ModelHintSchema).optional(),
    costPriority: zod.number().min(0).max(1).optional(),
    speedPriority: zod.number().min(0).max(1).optional(),
    intelligencePriority: zod.number().min(0).max(1).optional(),
  }),
);
/** Advisory model preferences. */
export type ModelPreferences = z.infer<typeof ModelPreferencesSchema>;

/** How the model may use tools while sampling: `auto` (default), `required` or `none`. */
export const ToolChoiceSchema = lazySchema(() =>
  zod.looseObject({
    mode: zod.enum(['auto', 'required', 'none']).optional(),
  }),
);
/** How the model may use tools while sampling. */
export type ToolChoice = z.infer<typeof ToolChoiceSchema>;

/**
 * What to sample: the conversation, a token cap, and optional preferences. `tools` / `toolChoice` need the
 * client's `sampling.tools` capability; `includeContext` other than `"none"` is deprecated.
 */
export const CreateMessageRequestParamsSchema = lazySchema(() =>
  zod.looseObject({
    messages: zod.array(SamplingMessageSchema),
    modelPreferences: ModelPreferencesSchema.optional(),
    systemPrompt: zod.string().optional(),
    includeContext: zod.enum(['none', 'thisServer', 'allServers']).optional(),
    temperature: zod.number().optional(),
    maxTokens: zod.int(),
    stopSequences: zod.array(zod.string()).optional(),
    /** Provider-specific; a JSON object passed through unchecked (see capabilities.ts on why not recursive). */
    metadata: openObject.optional(),
    tools: zod.array(ToolSchema).optional(),
    toolChoice: ToolChoiceSchema.optional(),
  }),
);
/** What to sample. */
export type CreateMessageRequestParams = z.infer<typeof CreateMessageRequestParamsSchema>;

/**
 * An input request asking the client to sample an LLM (human in the loop). Embedded in an
 * `InputRequiredResult`, so it has no JSON-RPC envelope.
 */
export const CreateMessageRequestSchema = lazySchema(() =>
  zod.looseObject({
    method: zod.literal('sampling/createMessage'),
    params: CreateMessageRequestParamsSchema,
  }),
);
/** An input request asking the client to sample an LLM. */
export type CreateMessageRequest = z.infer<typeof CreateMessageRequestSchema>;

/**
 * The client's answer to `sampling/createMessage`: the sampled message, the `model` that produced it and an
 * open-ended `stopReason` (`endTurn`, `stopSequence`, `maxTokens`, `toolUse`, or provider-specific).
 */
export const CreateMessageResultSchema = lazySchema(() =>
  SamplingMessageSchema.extend({
    model: zod.string(),
    stopReason: zod.string().optional(),
  }),
);
/** The client's answer to `sampling/createMessage`. */
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;
