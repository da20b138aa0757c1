// `elicitation/create`: information the server asks the user for, through a flat form or an external URL.
import { z } from 'zod';

/** A text field of an elicitation form, optionally a well-known `format` and length bounds. */
export const StringSchemaSchema = z.looseObject({
  type: z.literal('string'),
  title: z.string().optional(),
  description: z.string().optional(),
  minLength: z.int().optional(),
  maxLength: z.int().optional(),
  format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
  default: z.string().optional(),
});
/** A text field of an elicitation form. */
export type StringSchema = z.infer<typeof StringSchemaSchema>;

/** A numeric field of an elicitation form (`number` or `integer`), optionally bounded. */
export const NumberSchemaSchema = z.looseObject({
  type: z.enum(['number', 'integer']),
  title: z.string().optional(),
  description: z.string().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  default: z.number().optional(),
});
/** A numeric field of an elicitation form. */
export type NumberSchema = z.infer<typeof NumberSchemaSchema>;

/** A yes/no field of an elicitation form. */
export const BooleanSchemaSchema = z.looseObject({
  type: z.literal('boolean'),
  title: z.string().optional(),
  description: z.string().optional(),
  default: z.boolean().optional(),
});
/** A yes/no field of an elicitation form. */
export type BooleanSchema = z.infer<typeof BooleanSchemaSchema>;

/** `{ const, title }`: one option of a titled enum, its wire value and its display label. */
const titledOption = z.looseObject({ const: z.string(), title: z.string() });

/** A single choice among plain string values. */
export const UntitledSingleSelectEnumSchemaSchema = z.looseObject({
  type: z.literal('string'),
  title: z.string().optional(),
  description: z.string().optional(),
  enum: z.array(z.string()),
  default: z.string().optional(),
});
/** A single choice among plain string values. */
export type UntitledSingleSelectEnumSchema = z.infer<typeof UntitledSingleSelectEnumSchemaSchema>;

/** A single choice among values that each have a display title (`oneOf` of `{ const, title }`). */
export const TitledSingleSelectEnumSchemaSchema = z.looseObject({
  type: z.literal('string'),
  title: z.string().optional(),
  description: z.string().optional(),
  oneOf: z.array(titledOption),
  default: z.string().optional(),
});
/** A single choice among titled values. */
export type TitledSingleSelectEnumSchema = z.infer<typeof TitledSingleSelectEnumSchemaSchema>;

/** A single-choice field. Both kinds have `type: "string"`, so a plain union (no tag tells them apart). */
export const SingleSelectEnumSchemaSchema = z.union([
  UntitledSingleSelectEnumSchemaSchema,
  TitledSingleSelectEnumSchemaSchema,
]);
/** A single-choice field. */
export type SingleSelectEnumSchema = z.infer<typeof SingleSelectEnumSchemaSchema>;

/** A multiple choice among plain string values, optionally bounded in count. */
export const UntitledMultiSelectEnumSchemaSchema = z.looseObject({
  type: z.literal('array'),
  title: z.string().optional(),
  description: z.string().optional(),
  minItems: z.int().optional(),
  maxItems: z.int().optional(),
  items: z.looseObject({ type: z.literal('string'), enum: z.array(z.string()) }),
  default: z.array(z.string()).optional(),
});
/** A multiple choice among plain string values. */
export type UntitledMultiSelectEnumSchema = z.infer<typeof UntitledMultiSelectEnumSchemaSchema>;

/** A multiple choice among titled values (`items.anyOf` of `{ const, title }`). */
export const TitledMultiSelectEnumSchemaSchema = z.looseObject({
  type: z.literal('array'),
  title: z.string().optional(),
  description: z.string().optional(),
  minItems: z.int().optional(),
  maxItems: z.int().optional(),
  items: z.looseObject({ anyOf: z.array(titledOption) }),
  default: z.array(z.string()).optional(),
});
/** A multiple choice among titled values. */
export type TitledMultiSelectEnumSchema = z.infer<typeof TitledMultiSelectEnumSchemaSchema>;

/** A multiple-choice field. Both kinds have `type: "array"`, so a plain union. */
export const MultiSelectEnumSchemaSchema = z.union([
  UntitledMultiSelectEnumSchemaSchema,
  TitledMultiSelectEnumSchemaSchema,
]);
/** A multiple-choice field. */
export type MultiSelectEnumSchema = z.infer<typeof MultiSelectEnumSchemaSchema>;

/** Deprecated enum form with display names in the non-standard `enumNames`; use the titled single select. */
export const LegacyTitledEnumSchemaSchema = z.looseObject({
  type: z.literal('string'),
  title: z.string().optional(),
  description: z.string().optional(),
  enum: z.array(z.string()),
  enumNames: z.array(z.string()).optional(),
  default: z.string().optional(),
});
/** Deprecated enum form with `enumNames`. */
export type LegacyTitledEnumSchema = z.infer<typeof LegacyTitledEnumSchemaSchema>;

/** Any enum field (single, multiple or legacy). Several kinds share a `type`, so a plain union. */
export const EnumSchemaSchema = z.union([
  UntitledSingleSelectEnumSchemaSchema,
  TitledSingleSelectEnumSchemaSchema,
  UntitledMultiSelectEnumSchemaSchema,
  TitledMultiSelectEnumSchemaSchema,
  LegacyTitledEnumSchemaSchema,
]);
/** Any enum field. */
export type EnumSchema = z.infer<typeof EnumSchemaSchema>;

/**
 * One field of an elicitation form: the flat, primitive-only JSON Schema subset clients can render. A plain
 * union: `type: "string"` is shared by text and enum fields.
 */
export const PrimitiveSchemaDefinitionSchema = z.union([
  StringSchemaSchema,
  NumberSchemaSchema,
  BooleanSchemaSchema,
  UntitledSingleSelectEnumSchemaSchema,
  TitledSingleSelectEnumSchemaSchema,
  UntitledMultiSelectEnumSchemaSchema,
  TitledMultiSelectEnumSchemaSchema,
  LegacyTitledEnumSchemaSchema,
]);
/** One field of an elicitation form. */
export type PrimitiveSchemaDefinition = z.infer<typeof PrimitiveSchemaDefinitionSchema>;

/**
 * A form elicitation for non-sensitive data: a message and a flat object schema of primitive fields. `mode`
 * may be omitted (form is the default).
 */
export const ElicitRequestFormParamsSchema = z.looseObject({
  mode: z.literal('form').optional(),
  message: z.string(),
  requestedSchema: z.looseObject({
    $schema: z.string().optional(),
    type: z.literal('object'),
    properties: z.record(z.string(), PrimitiveSchemaDefinitionSchema),
    required: z.array(z.string()).optional(),
  }),
});
/** A form elicitation. */
export type ElicitRequestFormParams = z.infer<typeof ElicitRequestFormParamsSchema>;

/** A URL elicitation: the user completes the interaction at `url`, out of band (for sensitive data). */
export const ElicitRequestURLParamsSchema = z.looseObject({
  mode: z.literal('url'),
  message: z.string(),
  url: z.string(),
});
/** A URL elicitation. */
export type ElicitRequestURLParams = z.infer<typeof ElicitRequestURLParamsSchema>;

/**
 * Form or URL elicitation params, discriminated by `mode`. The form's `mode` is optional; zod's discriminated
 * union maps an absent `mode` to the form branch, so this stays a one-lookup dispatch.
 */
export const ElicitRequestParamsSchema = z.discriminatedUnion('mode', [
  ElicitRequestFormParamsSchema,
  ElicitRequestURLParamsSchema,
]);
/** Form or URL elicitation params. */
export type ElicitRequestParams = z.infer<typeof ElicitRequestParamsSchema>;

/**
 * An input request asking the client to elicit information from the user (embedded, no JSON-RPC envelope).
 */
export const ElicitRequestSchema = z.looseObject({
  method: z.literal('elicitation/create'),
  params: ElicitRequestParamsSchema,
});
/** An input request asking the user for information. */
export type ElicitRequest = z.infer<typeof ElicitRequestSchema>;

/**
 * The user's answer: `accept` (with form `content`; none for URL mode), `decline` or `cancel`. Content values
 * are strings, numbers, booleans or string lists (schema.ts; schema.json narrows numbers to integers).
 */
export const ElicitResultSchema = z.looseObject({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
    .optional(),
});
/** The user's answer to an elicitation. */
export type ElicitResult = z.infer<typeof ElicitResultSchema>;
