// 2025-11-25 building blocks: optional request `_meta`, results without `resultType`, task metadata and the
// capabilities exchanged once by `initialize` (not per request, as in 2026-07-28).
import type { z } from 'zod';
import { openObject } from '../schema/base.js';
import { MetaObjectSchema, ProgressTokenSchema } from '../schema/index.js';
import { lazySchema, zod } from '../schema/zod.js';

/** 2025-11-25 request `_meta`: optional, with an optional `progressToken` and any extension keys. */
export const requestMeta = lazySchema(() =>
  zod.looseObject({ progressToken: ProgressTokenSchema.optional() }),
);

/** Task-augmented execution (2025-11-25, experimental): ask for a task with an optional `ttl` in ms. */
export const TaskMetadataSchema = lazySchema(() =>
  zod.looseObject({
    ttl: zod.int().optional(),
  }),
);
/** Task-augmented execution metadata. */
export type TaskMetadata = z.infer<typeof TaskMetadataSchema>;

/** 2025-11-25 request params: only an optional `_meta`. */
export const RequestParamsSchema = lazySchema(() =>
  zod.looseObject({
    _meta: requestMeta.optional(),
  }),
);
/** 2025-11-25 request params. */
export type RequestParams = z.infer<typeof RequestParamsSchema>;

/** 2025-11-25 params of requests that may run as a task: `_meta` and `task`. */
export const TaskAugmentedRequestParamsSchema = lazySchema(() =>
  RequestParamsSchema.extend({
    task: TaskMetadataSchema.optional(),
  }),
);
/** 2025-11-25 params of task-augmentable requests. */
export type TaskAugmentedRequestParams = z.infer<typeof TaskAugmentedRequestParamsSchema>;

/** 2025-11-25 notification params: only an optional `_meta`. */
export const NotificationParamsSchema = lazySchema(() =>
  zod.looseObject({
    _meta: MetaObjectSchema.optional(),
  }),
);
/** 2025-11-25 notification params. */
export type NotificationParams = z.infer<typeof NotificationParamsSchema>;

/** 2025-11-25 params of list requests: optional `_meta` and `cursor`. */
export const PaginatedRequestParamsSchema = lazySchema(() =>
  RequestParamsSchema.extend({
    cursor: zod.string().optional(),
  }),
);
/** 2025-11-25 params of list requests. */
export type PaginatedRequestParams = z.infer<typeof PaginatedRequestParamsSchema>;

/** A 2025-11-25 result: any members, optional `_meta`, and no `resultType` (that field is 2026-07-28's). */
export const ResultSchema = lazySchema(() =>
  zod.looseObject({
    _meta: MetaObjectSchema.optional(),
  }),
);
/** A 2025-11-25 result. */
export type Result = z.infer<typeof ResultSchema>;

/** A 2025-11-25 result with no data (the answer to `ping`, `logging/setLevel`, `resources/subscribe`…). */
export const EmptyResultSchema = ResultSchema;
/** A 2025-11-25 result with no data. */
export type EmptyResult = z.infer<typeof EmptyResultSchema>;

/** A capability flag whose settings object is open (2025-11-25 types them as plain `object`). */
const flag = openObject;

/** A 2025-11-25 client's capabilities, declared once in `initialize`. */
export const ClientCapabilitiesSchema = lazySchema(() =>
  zod.looseObject({
    experimental: zod.record(zod.string(), flag).optional(),
    roots: zod.looseObject({ listChanged: zod.boolean().optional() }).optional(),
    sampling: zod.looseObject({ context: flag.optional(), tools: flag.optional() }).optional(),
    elicitation: zod.looseObject({ form: flag.optional(), url: flag.optional() }).optional(),
    tasks: zod
      .looseObject({
        list: flag.optional(),
        cancel: flag.optional(),
        requests: zod
          .looseObject({
            sampling: zod.looseObject({ createMessage: flag.optional() }).optional(),
            elicitation: zod.looseObject({ create: flag.optional() }).optional(),
          })
          .optional(),
      })
      .optional(),
  }),
);
/** A 2025-11-25 client's capabilities. */
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

/** `{ listChanged? }` feature flag. */
const listChangedFeature = lazySchema(() => zod.looseObject({ listChanged: zod.boolean().optional() }));

/** A 2025-11-25 server's capabilities, announced once in the `initialize` result. */
export const ServerCapabilitiesSchema = lazySchema(() =>
  zod.looseObject({
    experimental: zod.record(zod.string(), flag).optional(),
    logging: flag.optional(),
    completions: flag.optional(),
    prompts: listChangedFeature.optional(),
    resources: zod
      .looseObject({ subscribe: zod.boolean().optional(), listChanged: zod.boolean().optional() })
      .optional(),
    tools: listChangedFeature.optional(),
    tasks: zod
      .looseObject({
        list: flag.optional(),
        cancel: flag.optional(),
        requests: zod
          .looseObject({ tools: zod.looseObject({ call: flag.optional() }).optional() })
          .optional(),
      })
      .optional(),
  }),
);
/** A 2025-11-25 server's capabilities. */
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;
