// Spec conformance of the 2026-07-28 schemas, derived from ../shared/spec: every example fixture round-trips,
// every required member is enforced, and the exported schema names are exactly schema.json's `$defs`.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as root from '../index.js';
import * as schemas from '../schemas.js';
import {
  applyMutation,
  loadSpec,
  type Mutation,
  requiredFieldMutations,
  type SpecRevision,
  synthesize,
} from './test-support/spec-harness.js';

const spec = loadSpec('2026-07-28');

/**
 * Mutations that stay valid by design, with the reason. Keep this list short and explicit.
 * Keys are `<Type> <mutation name>`.
 */
const validByDesign: Record<string, string> = {};

const exported = schemas as unknown as Record<string, unknown>;

function schemaFor(type: string): z.ZodType {
  const schema = exported[`${type}Schema`];
  if (!(schema instanceof z.ZodType))
    throw new Error(`${type}Schema is not exported from @boomerang/protocol/schemas`);
  return schema;
}

/** A valid value of `type`: its first example fixture, or a minimal value synthesised from schema.json. */
function baseValue(s: SpecRevision, type: string): unknown {
  const first = s.examples.get(type)?.[0];
  if (first) return first[1];
  const def = s.defs[type];
  if (!def) throw new Error(`no $defs entry for ${type}`);
  return synthesize(def, s.defs);
}

if (!spec) {
  console.warn('skipping spec tests: ../shared/spec not found');
  describe.skip('2026-07-28 spec conformance (../shared/spec not found)', () => {
    it('needs ../shared/spec', () => {});
  });
} else {
  const s = spec;
  const fixtures = [...s.examples].flatMap(([type, files]) =>
    files.map(([file, value]) => ({ type, file, value })),
  );

  describe('2026-07-28 example fixtures', () => {
    it('has all 129 fixtures', () => {
      expect(fixtures).toHaveLength(129);
    });

    it.each(fixtures)('$type/$file parses and serialises back unchanged', ({ type, value }) => {
      const result = schemaFor(type).safeParse(value);
      expect(result.error).toBeUndefined();
      expect(JSON.parse(JSON.stringify(result.data))).toEqual(value);
    });
  });

  describe('2026-07-28 required members', () => {
    const cases: Array<{ type: string; base: unknown; mutation: Mutation }> = [];
    const bases: Array<{ type: string; base: unknown }> = [];
    for (const [type, def] of Object.entries(s.defs)) {
      const base = baseValue(s, type);
      bases.push({ type, base });
      for (const mutation of requiredFieldMutations(def, base, s.defs)) {
        if (validByDesign[`${type} ${mutation.name}`] === undefined) cases.push({ type, base, mutation });
      }
    }

    it.each(bases)('$type: the base value of the mutations is valid', ({ type, base }) => {
      expect(schemaFor(type).safeParse(base).error).toBeUndefined();
    });

    it.each(cases.map((c) => ({ ...c, name: c.mutation.name })))(
      '$type rejects $name',
      ({ type, base, mutation }) => {
        expect(schemaFor(type).safeParse(applyMutation(base, mutation)).success).toBe(false);
      },
    );

    it('skips only mutations that exist', () => {
      const all = new Set(
        Object.entries(s.defs).flatMap(([type, def]) =>
          requiredFieldMutations(def, baseValue(s, type), s.defs).map((m) => `${type} ${m.name}`),
        ),
      );
      for (const key of Object.keys(validByDesign)) expect(all).toContain(key);
    });
  });

  describe('2026-07-28 export surface', () => {
    it('/schemas exports a zod schema for exactly the $defs types (and safeParse); the root none', () => {
      const schemaNames = Object.keys(exported)
        .filter((name) => name !== 'safeParse')
        .sort();
      expect(Object.keys(exported)).toContain('safeParse');
      const atRoot = root as unknown as Record<string, unknown>;
      expect(Object.keys(atRoot).filter((name) => atRoot[name] instanceof z.ZodType)).toEqual([]);
      for (const name of schemaNames) expect(exported[name]).toBeInstanceOf(z.ZodType);
      expect(schemaNames).toEqual(
        Object.keys(s.defs)
          .map((type) => `${type}Schema`)
          .sort(),
      );
    });
  });
}
