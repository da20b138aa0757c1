// The extension's messages as zod schemas. Results are read leniently where the extension needs its own checks:
// `skills` and `skill` arrive as unknown values and each entry is judged by `skillEntryProblems`, so one bad entry
// is reported by name instead of failing the whole page. Written from SEP-2640, not copied.
import type { z } from 'zod';
import { CursorSchema } from '../schema/base.js';
import { ResourceSchema } from '../schema/content.js';
import { completeResultType, ResultMetaObjectSchema } from '../schema/meta.js';
import { lazySchema, zod } from '../schema/zod.js';

/** `ttlMs` / `cacheScope`: required on 2026-07-28 results, absent on 2025-11-25 ones. */
const cacheHints = () => ({
  resultType: completeResultType,
  _meta: ResultMetaObjectSchema.optional(),
  ttlMs: zod.int().min(0).optional(),
  cacheScope: zod.enum(['public', 'private']).optional(),
});

/** Params of `skills/list` (without `_meta`): the `nextCursor` of the previous page, if any. */
export const ListSkillsParamsSchema = lazySchema(() => zod.looseObject({ cursor: CursorSchema.optional() }));
/** Params of `skills/list`. */
export type ListSkillsParams = z.infer<typeof ListSkillsParamsSchema>;

/** Params of `skills/get` (without `_meta`): the skill's `SKILL.md` URI. */
export const GetSkillParamsSchema = lazySchema(() => zod.looseObject({ uri: zod.string() }));
/** Params of `skills/get`. */
export type GetSkillParams = z.infer<typeof GetSkillParamsSchema>;

/** Params of `resources/directory/read` (without `_meta`): a directory resource's URI, and a cursor. */
export const ReadResourceDirectoryParamsSchema = lazySchema(() =>
  zod.looseObject({ uri: zod.string(), cursor: CursorSchema.optional() }),
);
/** Params of `resources/directory/read`. */
export type ReadResourceDirectoryParams = z.infer<typeof ReadResourceDirectoryParamsSchema>;

/** `skills/list`'s result as received: entries unchecked (see `skillEntryProblems`). */
export const ListSkillsResultSchema = lazySchema(() =>
  zod.looseObject({ ...cacheHints(), skills: zod.array(zod.unknown()), nextCursor: CursorSchema.optional() }),
);
/** `skills/list`'s result as received. */
export type ListSkillsResult = z.infer<typeof ListSkillsResultSchema>;

/** `skills/get`'s result as received: the entry unchecked. */
export const GetSkillResultSchema = lazySchema(() =>
  zod.looseObject({ ...cacheHints(), skill: zod.unknown() }),
);
/** `skills/get`'s result as received. */
export type GetSkillResult = z.infer<typeof GetSkillResultSchema>;

/** `resources/directory/read`'s result: the directory's direct children (folders with `inode/directory`). */
export const ReadResourceDirectoryResultSchema = lazySchema(() =>
  zod.looseObject({
    ...cacheHints(),
    resources: zod.array(ResourceSchema),
    nextCursor: CursorSchema.optional(),
  }),
);
/** `resources/directory/read`'s result. */
export type ReadResourceDirectoryResult = z.infer<typeof ReadResourceDirectoryResultSchema>;
