// Content blocks (what tools and prompts return) and resource contents.
import { z } from 'zod';
import { AnnotationsSchema, IconSchema, MetaObjectSchema } from './base.js';

/** Text for or from an LLM. */
export const TextContentSchema = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaObjectSchema.optional(),
});
/** Text for or from an LLM. */
export type TextContent = z.infer<typeof TextContentSchema>;

/** An image for or from an LLM: base64 `data` and its `mimeType`. */
export const ImageContentSchema = z.looseObject({
  type: z.literal('image'),
  data: z.string(),
  mimeType: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaObjectSchema.optional(),
});
/** An image for or from an LLM. */
export type ImageContent = z.infer<typeof ImageContentSchema>;

/** Audio for or from an LLM: base64 `data` and its `mimeType`. */
export const AudioContentSchema = z.looseObject({
  type: z.literal('audio'),
  data: z.string(),
  mimeType: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaObjectSchema.optional(),
});
/** Audio for or from an LLM. */
export type AudioContent = z.infer<typeof AudioContentSchema>;

/** The common part of resource contents: the `uri` read and, if known, its `mimeType`. */
export const ResourceContentsSchema = z.looseObject({
  uri: z.string(),
  mimeType: z.string().optional(),
  _meta: MetaObjectSchema.optional(),
});
/** The common part of resource contents. */
export type ResourceContents = z.infer<typeof ResourceContentsSchema>;

/** Resource contents representable as text. */
export const TextResourceContentsSchema = ResourceContentsSchema.extend({
  text: z.string(),
});
/** Resource contents as text. */
export type TextResourceContents = z.infer<typeof TextResourceContentsSchema>;

/** Binary resource contents, base64 in `blob`. */
export const BlobResourceContentsSchema = ResourceContentsSchema.extend({
  blob: z.string(),
});
/** Binary resource contents. */
export type BlobResourceContents = z.infer<typeof BlobResourceContentsSchema>;

/**
 * Text or blob contents. No tag tells them apart (only which of `text` / `blob` is present), so a plain
 * union; text is tried first.
 */
export const resourceContents = z.union([TextResourceContentsSchema, BlobResourceContentsSchema]);

/**
 * A resource the server can read: `uri`, `name`, and optional description, MIME type, size in bytes, icons.
 */
export const ResourceSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  icons: z.array(IconSchema).optional(),
  uri: z.string(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  annotations: AnnotationsSchema.optional(),
  size: z.int().optional(),
  _meta: MetaObjectSchema.optional(),
});
/** A resource the server can read. */
export type Resource = z.infer<typeof ResourceSchema>;

/**
 * A link to a resource inside a tool or prompt result. Linked resources need not appear in `resources/list`.
 */
export const ResourceLinkSchema = ResourceSchema.extend({
  type: z.literal('resource_link'),
});
/** A link to a resource inside a result. */
export type ResourceLink = z.infer<typeof ResourceLinkSchema>;

/** A resource's contents embedded in a tool or prompt result. */
export const EmbeddedResourceSchema = z.looseObject({
  type: z.literal('resource'),
  resource: resourceContents,
  annotations: AnnotationsSchema.optional(),
  _meta: MetaObjectSchema.optional(),
});
/** A resource's contents embedded in a result. */
export type EmbeddedResource = z.infer<typeof EmbeddedResourceSchema>;

/** One block of tool or prompt output, discriminated by `type`. */
export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ResourceLinkSchema,
  EmbeddedResourceSchema,
]);
/** One block of tool or prompt output. */
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
