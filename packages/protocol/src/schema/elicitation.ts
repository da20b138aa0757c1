// `elicitation/create`: information the server asks the user for, through a flat form or an external URL.
import type { z } from 'zod';
import { lazySchema, zod } from './zod.js';

/** A text field of an elicitation form, optionally a well-known `format` and length bounds. */
export const StringSchemaSchema = lazySchema(() =>
  zod.looseObject({
    type: zod.literal('string'),
    title: zod.string().optional(),
    description: zod.string().optional(),
    minLength: zod.int().optional(),
    maxLength: zod.int().optional(),
    format: zod.enum(['email', 'uri', 'date', 'date-time']).optional(),
    default: zod.string().optional(),
  }),
);
/** A text field of an elicitation form. */
export type StringSchema = z.infer<typeof StringSchemaSchema>;

/** A numeric field of an elicitation form (`number` or `integer`), optionally bounded. */
export const NumberSchemaSchema = lazySchema(() =>
  zod.looseObject({
    type: zod.enum(['number', 'integer']),
    title: zod.string().optional(),
    description: zod.string().optional(),
    minimum: zod.number().optional(),
    maximum: zod.number().optional(),
    default: zod.number().optional(),
  }),
);
/** A numeric field of an elicitation form. */
export type NumberSchema = z.infer<typeof NumberSchemaSchema>;

/** A yes/no field of an elicitation form. */
export const BooleanSchemaSchema = lazySchema(() =>
  zod.looseObject({
    type: zod.literal('boolean'),
    title: zod.string().optional(),
    description: zod.string().optional(),
    default: zod.boolean().optional(),
  }),
);
/** A yes/no field of an elicitation form. */
export type BooleanSchema = z.infer<typeof BooleanSchemaSchema>;

/** `{ const, title }`: one option of a titled enum, its wire value and its display label. */
const titledOption = lazySchema(() => zod.looseObject({ const: zod.string(), title: zod.string() }));

/** A single choice among plain string values. */
export const UntitledSingleSelectEnumSchemaSchema = lazySchema(() =>
  zod.looseObject({
    type: zod.literal('string'),
    title: zod.string().optional(),
    description: zod.string().optional(),
    enum: zod.array(zod.string()),
    default: zod.string().optional(),
  }),
);
/** A single choice among plain string values. */
export type UntitledSingleSelectEnumSchema = z.infer<typeof UntitledSingleSelectEnumSchemaSchema>;

/** A single choice among values that each have a display title (`oneOf` of `{ const, title }`). */
export const TitledSingleSelectEnumSchemaSchema = lazySchema(() =>
  zod.looseObject({
    type: zod.literal('string'),
    title: zod.string().optional(),
    description: zod.string().optional(),
    oneOf: zod.array(titledOption),
    default: zod.string().optional(),
  }),
);
/** A single choice among titled values. */
export type TitledSingleSelectEnumSchema = z.infer<typeof TitledSingleSelectEnumSchemaSchema>;

/** A single-choice field. Both kinds have `type: "string"`, so a plain union (no tag tells them apart). */
export const SingleSelectEnumSchemaSchema = lazySchema(() =>
  zod.union([UntitledSingleSelectEnumSchemaSchema, TitledSingleSelectEnumSchemaSchema]),
);
/** A single-choice field. */
export type SingleSelectEnumSchema = z.infer<typeof SingleSelectEnumSchemaSchema>;

/** A multiple choice among plain string values, optionally bounded in count. */
export const UntitledMultiSelectEnumSchemaSchema = lazySchema(() =>
  zod.looseObject({
    type: zod.literal('array'),
    title: zod.string().optional(),
    description: zod.string().optional(),
    minItems: zod.int().optional(),
    maxItems: zod.int().optional(),
    items: zod.looseObject({ type: zod.literal('string'), enum: zod.array(zod.string()) }),
    default: zod.array(zod.string()).optional(),
  }),
);
/** A multiple choice among plain string values. */
export type UntitledMultiSelectEnumSchema = z.infer<typeof UntitledMultiSelectEnumSchemaSchema>;

/** A multiple choice among titled values (`items.anyOf` of `{ const, title }`). */
export const TitledMultiSelectEnumSchemaSchema = lazySchema(() =>
  zod.looseObject({
    type: zod.literal('array'),
    title: zod.string().optional(),
    description: zod.string().optional(),
    minItems: zod.int().optional(),
    maxItems: zod.int().optional(),
    items: zod.looseObject({ anyOf: zod.array(titledOption) }),
    default: zod.array(zod.string()).optional(),
  }),
);
/** A multiple choice among titled values. */
export type TitledMultiSelectEnumSchema = z.infer<typeof TitledMultiSelectEnumSchemaSchema>;

/** A multiple-choice field. Both kinds have `type: "array"`, so a plain union. */
export const MultiSelectEnumSchemaSchema = lazySchema(() =>
  zod.union([UntitledMultiSelectEnumSchemaSchema, TitledMultiSelectEnumSchemaSchema]),
);
/** A multiple-choice field. */
export type MultiSelectEnumSchema = z.infer<typeof MultiSelectEnumSchemaSchema>;

/** Deprecated enum form with display names in the non-standard `enumNames`; use the titled single select. */
export const LegacyTitledEnumSchemaSchema = lazySchema(() =>
  zod.looseObject({
    type: zod.literal('string'),
    title: zod.string().optional(),
    description: zod.string().optional(),
    enum: zod.array(zod.string()),
    enumNames: zod.array(zod.string()).optional(),
    default: zod.string().optional(),
  }),
);
/** Deprecated enum form with `enumNames`. */
export type LegacyTitledEnumSchema = z.infer<typeof LegacyTitledEnumSchemaSchema>;

/** Any enum field (single, multiple or legacy). Several kinds share a `type`, so a plain union. */
export const EnumSchemaSchema = lazySchema(() =>
  zod.union([
    UntitledSingleSelectEnumSchemaSchema,
    TitledSingleSelectEnumSchemaSchema,
    UntitledMultiSelectEnumSchemaSchema,
    TitledMultiSelectEnumSchemaSchema,
    LegacyTitledEnumSchemaSchema,
  ]),
);
/** Any enum field. */
export type EnumSchema = z.infer<typeof EnumSchemaSchema>;

/**
 * One field of an elicitation form: the flat, primitive-only JSON Schema subset clients can render. A plain
 * union: `type: "string"` is shared by text and enum fields.
 */
export const PrimitiveSchemaDefinitionSchema = lazySchema(() =>
  zod.union([
    StringSchemaSchema,
    NumberSchemaSchema,
    BooleanSchemaSchema,
    UntitledSingleSelectEnumSchemaSchema,
    TitledSingleSelectEnumSchemaSchema,
    UntitledMultiSelectEnumSchemaSchema,
    TitledMultiSelectEnumSchemaSchema,
    LegacyTitledEnumSchemaSchema,
  ]),
);
/** One field of an elicitation form. */
export type PrimitiveSchemaDefinition = z.infer<typeof PrimitiveSchemaDefinitionSchema>;

/**
 * A form elicitation for non-sensitive data: a message and a flat object schema of primitive fields. `mode`
 * may be omitted (form is the default).
 */
export const ElicitRequestFormParamsSchema = lazySchema(() =>
  zod.looseObject({
    mode: zod.literal('form').optional(),
    message: zod.string(),
    requestedSchema: zod.looseObject({
      $schema: zod.string().optional(),
      type: zod.literal('object'),
      properties: zod.record(zod.string(), PrimitiveSchemaDefinitionSchema),
      required: zod.array(zod.string()).optional(),
    }),
  }),
);
/** A form elicitation. */
export type ElicitRequestFormParams = z.infer<typeof ElicitRequestFormParamsSchema>;

/** A URL elicitation: the user completes the interaction at `url`, out of band (for sensitive data). */
export const ElicitRequestURLParamsSchema = lazySchema(() =>
  zod.looseObject({
    mode: zod.literal('url'),
    message: zod.string(),
    url: zod.string(),
  }),
);
/** A URL elicitation. */
export type ElicitRequestURLParams = z.infer<typeof ElicitRequestURLParamsSchema>;

/**
 * Form or URL elicitation params, discriminated by `mode`. The form's `mode` is optional; zod's discriminated
 * union maps an absent `mode` to the form branch, so this stays a one-lookup dispatch.
 */
export const ElicitRequestParamsSchema = lazySchema(() =>
  zod.discriminatedUnion('mode', [ElicitRequestFormParamsSchema, ElicitRequestURLParamsSchema]),
);
/** Form or URL elicitation params. */
export type ElicitRequestParams = z.infer<typeof ElicitRequestParamsSchema>;

/**
 * An input request asking the client to elicit information from the user (embedded, no JSON-RPC envelope).
 */
export const ElicitRequestSchema = lazySchema(() =>
  zod.looseObject({
    method: zod.literal('elicitation/create'),
    params: ElicitRequestParamsSchema,
  }),
);
/** An input request asking the user for information. */
export type ElicitRequest = z.infer<typeof ElicitRequestSchema>;

/**
 * The user's answer: `accept` (with form `content`; none for URL mode), `decline` or `cancel`. Content values
 * are strings, numbers, booleans or string lists (schema.ts; schema.json narrows numbers to integers).
 */
export const ElicitResultSchema = lazySchema(() =>
  zod.looseObject({
    action: zod.enum(['accept', 'decline', 'cancel']),
    content: zod
      .record(zod.string(), zod.union([zod.string(), zod.number(), zod.boolean(), zod.array(zod.string())]))
      .optional(),
  }),
);
/** The user's answer to an elicitation. */
export type ElicitResult = z.infer<typeof ElicitResultSchema>;
