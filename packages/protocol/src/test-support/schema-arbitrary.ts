// Values for a zod schema, derived from the schema itself (through its JSON Schema): every member it declares,
// valid or a near miss. Property tests that pit a hand-written check against zod use it, so a schema that gains,
// loses or retypes a member changes the values tested, and a fast check that did not follow fails.
import fc from 'fast-check';
import { z } from 'zod';

type Arb = fc.Arbitrary<unknown>;
type JsonSchema = Record<string, unknown>;

/** How deep nested schemas are generated; below that, only the smallest valid value (or junk). */
const MAX_DEPTH = 7;

/** Values of every JSON type and a few that JSON has no word for. */
export const junk: Arb = fc.oneof(
  fc.constantFrom(undefined, null, Number.NaN, Number.POSITIVE_INFINITY, -0, [], {}, 'text', 7, 1.5, true),
  fc.string({ maxLength: 3 }),
  fc.double(),
  fc.array(fc.string({ maxLength: 2 }), { maxLength: 2 }),
  fc.constant(new Date(0)),
);

/** A time as `Date.prototype.toISOString` writes it, years 0000 to 9999. */
const isoTime: Arb = fc
  .date({
    min: new Date('0000-01-01T00:00:00.000Z'),
    max: new Date('9999-12-31T23:59:59.999Z'),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString());

/** Mostly `arb`, sometimes junk: a near miss of a valid member. */
const maybe = (arb: Arb): Arb => fc.oneof({ weight: 24, arbitrary: arb }, { weight: 1, arbitrary: junk });

/** Extra members, including the names zod treats specially. */
const extras = fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'x-extra', 'toString'), junk, {
  maxKeys: 2,
});

/**
 * An arbitrary of values for `schema`: mostly valid ones, with a near miss (a member of the wrong type, a
 * missing required member, an extra member) in some of them. The JSON Schema is zod's own (`io: 'input'`).
 */
export function schemaArbitrary(schema: z.ZodType): Arb {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
  return arbitraryOf(json as JsonSchema, defs, 0);
}

function arbitraryOf(schema: JsonSchema, defs: Record<string, JsonSchema>, depth: number): Arb {
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const target = defs[ref.replace('#/$defs/', '')];
    return target === undefined ? junk : arbitraryOf(target, defs, depth + 1);
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return fc.oneof(...union.map((member) => arbitraryOf(member, defs, depth + 1)));
  if (Array.isArray(schema.allOf)) {
    // Intersections: the members of every part (objects only, as zod writes them).
    const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
    for (const part of schema.allOf as JsonSchema[]) {
      Object.assign(merged.properties as object, part.properties ?? {});
      (merged.required as string[]).push(...((part.required as string[] | undefined) ?? []));
    }
    return arbitraryOf(merged, defs, depth);
  }
  const type = Array.isArray(schema.type)
    ? (schema.type as string[])[0]
    : (schema.type as string | undefined);
  switch (type) {
    case 'string':
      // Times (`z.iso.datetime()`): mostly as servers write them, sometimes any string.
      if (schema.format === 'date-time') return fc.oneof(isoTime, fc.string({ maxLength: 5 }));
      return fc.string({ maxLength: 5, minLength: Math.min(Number(schema.minLength ?? 0), 5) });
    case 'integer':
      return fc.integer({
        min: typeof schema.minimum === 'number' ? Math.max(schema.minimum, -1e6) : -1e6,
        max: typeof schema.maximum === 'number' ? Math.min(schema.maximum, 1e6) : 1e6,
      });
    case 'number':
      return fc.double({
        min: typeof schema.minimum === 'number' ? schema.minimum : -1e6,
        max: typeof schema.maximum === 'number' ? schema.maximum : 1e6,
        noNaN: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (depth >= MAX_DEPTH) return fc.constant([]);
      const items = (schema.items ?? {}) as JsonSchema;
      return fc.array(maybe(arbitraryOf(items, defs, depth + 1)), { maxLength: 2 });
    }
    case 'object':
      return objectArbitrary(schema, defs, depth);
    default:
      // `{}`: anything.
      return fc.oneof(junk, fc.jsonValue({ maxDepth: 2 }));
  }
}

function objectArbitrary(schema: JsonSchema, defs: Record<string, JsonSchema>, depth: number): Arb {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  if (depth >= MAX_DEPTH) return fc.constant({});
  const members = Object.fromEntries(
    Object.entries(properties).map(([key, member]) => [key, maybe(arbitraryOf(member, defs, depth + 1))]),
  );
  // Required members are there, but for the odd value that drops one (a near miss).
  const requiredKeys = [...required].filter((key) => key in members);
  const base = fc.oneof(
    { weight: 30, arbitrary: fc.record(members, { requiredKeys }) },
    { weight: 1, arbitrary: fc.record(members, { requiredKeys: [] }) },
  );
  const additional = schema.additionalProperties;
  const open =
    typeof additional === 'object' && additional !== null
      ? fc.dictionary(
          fc.string({ maxLength: 4 }),
          maybe(arbitraryOf(additional as JsonSchema, defs, depth + 1)),
          { maxKeys: 2 },
        )
      : fc.constant({});
  const more = fc.oneof({ weight: 12, arbitrary: open }, { weight: 1, arbitrary: extras });
  return fc.tuple(base, more).map(([value, rest]) => {
    const out: Record<string, unknown> = {};
    for (const [key, member] of [...Object.entries(rest), ...Object.entries(value as object)]) {
      Object.defineProperty(out, key, {
        value: member,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  });
}
