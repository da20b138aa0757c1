// Content blocks (what tools and prompts return) and resource contents.
import type { z } from 'zod';
import { AnnotationsSchema, IconSchema, MetaObjectSchema } from './base.js';
import { lazySchema, zod } from './zod.js';

/** Text for or from an LLM. */
export const TextContentSchema = lazySchema(() =>
  zod.looseObject({
    type: zod.literal('text'),
    text: zod.string(),
    annotations: AnnotationsSchema.optional(),
    _meta: MetaObjectSchema.optional(),
  }),
);
/** Text for or from an LLM. */
export type TextContent = z.infer<typeof TextContentSchema>;

/** An image for or from an LLM: base64 `data` and its `mimeType`. */
export const ImageContentSchema = lazySchema(() =>
  zod.looseObject({
    type: zod.literal('image'),
    data: zod.string(),
    mimeType: zod.string(),
    annotations: AnnotationsSchema.optional(),
    _meta: MetaObjectSchema.optional(),
  }),
);
/** An image for or from an LLM. */
export type ImageContent = z.infer<typeof ImageContentSchema>;

/** Audio for or from an LLM: base64 `data` and its `mimeType`. */
export const AudioContentSchema = lazySchema(() =>
  zod.looseObject({
    type: zod.literal('audio'),
    data: zod.string(),
    mimeType: zod.string(),
    annotations: AnnotationsSchema.optional(),
    _meta: MetaObjectSchema.optional(),
  }),
);
/** Audio for or from an LLM. */
export type AudioContent = z.infer<typeof AudioContentSchema>;

/** The common part of resource contents: the `uri` read and, if known, its `mimeType`. */
export const ResourceContentsSchema = lazySchema(() =>
  zod.looseObject({
    uri: zod.string(),
    mimeType: zod.string().optional(),
    _meta: MetaObjectSchema.optional(),
  }),
);
/** The common part of resource contents. */
export type ResourceContents = z.infer<typeof ResourceContentsSchema>;

/** Resource contents representable as text. */
export const TextResourceContentsSchema = lazySchema(() =>
  ResourceContentsSchema.extend({
    text: zod.string(),
  }),
);
/** Resource contents as text. */
export type TextResourceContents = z.infer<typeof TextResourceContentsSchema>;

/** Binary resource contents, base64 in `blob`. */
export const BlobResourceContentsSchema = lazySchema(() =>
  ResourceContentsSchema.extend({
    blob: zod.string(),
  }),
);
/** Binary resource contents. */
export type BlobResourceContents = z.infer<typeof BlobResourceContentsSchema>;

/**
 * Text or blob contents. No tag tells them apart (only which of `text` / `blob` is present), so a plain
 * union; text is tried first.
 */
export const resourceContents = lazySchema(() =>
  zod.union([TextResourceContentsSchema, BlobResourceContentsSchema]),
);

/**
 * A resource the server can read: `uri`, `name`, and optional description, MIME type, size in bytes, icons.
 */
export const ResourceSchema = lazySchema(() =>
  zod.looseObject({
    name: zod.string(),
    title: zod.string().optional(),
    icons: zod.array(IconSchema).optional(),
    uri: zod.string(),
    description: zod.string().optional(),
    mimeType: zod.string().optional(),
    annotations: AnnotationsSchema.optional(),
    size: zod.int().optional(),
    _meta: MetaObjectSchema.optional(),
  }),
);
/** A resource the server can read. */
export type Resource = z.infer<typeof ResourceSchema>;

/**
 * A link to a resource inside a tool or prompt result. Linked resources need not appear in `resources/list`.
 */
export const ResourceLinkSchema = lazySchema(() =>
  ResourceSchema.extend({
    type: zod.literal('resource_link'),
  }),
);
/** A link to a resource inside a result. */
export type ResourceLink = z.infer<typeof ResourceLinkSchema>;

/** A resource's contents embedded in a tool or prompt result. */
export const EmbeddedResourceSchema = lazySchema(() =>
  zod.looseObject({
    type: zod.literal('resource'),
    resource: resourceContents,
    annotations: AnnotationsSchema.optional(),
    _meta: MetaObjectSchema.optional(),
  }),
);
/** A resource's contents embedded in a result. */
export type EmbeddedResource = z.infer<typeof EmbeddedResourceSchema>;

/** One block of tool or prompt output, discriminated by `type`. */
export const ContentBlockSchema = lazySchema(() =>
  zod.discriminatedUnion('type', [
    TextContentSchema,
    ImageContentSchema,
    AudioContentSchema,
    ResourceLinkSchema,
    EmbeddedResourceSchema,
  ]),
);
/** One block of tool or prompt output. */
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
