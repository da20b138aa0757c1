// Spec conformance of the 2025-11-25 schemas, derived from ../shared/spec/schema/2025-11-25/schema.json:
// every exported schema names a `$defs` type, accepts a minimal valid value, and enforces each required
// member.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  applyMutation,
  loadSpec,
  type Mutation,
  requiredFieldMutations,
  specMissing,
  synthesize,
} from '../schema/test-support/spec-harness.js';
import * as legacy from './index.js';

const spec = loadSpec('2025-11-25');

const exported = legacy as unknown as Record<string, unknown>;
const schemaNames = Object.keys(exported).filter((name) => exported[name] instanceof z.ZodType);

if (!spec) {
  console.warn(`skipping 2025-11-25 spec tests: ${specMissing}`);
  describe.skip('2025-11-25 spec conformance (../shared/spec not found)', () => {
    it(specMissing, () => {});
  });
} else {
  const { defs } = spec;
  const types = schemaNames.map((name) => name.replace(/Schema$/, '')).sort();

  describe('2025-11-25 export surface', () => {
    it('names every exported schema after a 2025-11-25 $defs type', () => {
      expect(types.filter((type) => defs[type] === undefined)).toEqual([]);
      expect(schemaNames.every((name) => name.endsWith('Schema'))).toBe(true);
    });

    it('covers the types the dual-era paths need', () => {
      expect(types).toEqual(
        expect.arrayContaining([
          'InitializeRequest',
          'InitializeRequestParams',
          'InitializeResult',
          'InitializedNotification',
          'PingRequest',
          'ClientCapabilities',
          'ServerCapabilities',
          'ElicitRequest',
          'ElicitResult',
          'CreateMessageRequest',
          'CreateMessageResult',
          'ListRootsRequest',
          'ListRootsResult',
          'SetLevelRequest',
          'SubscribeRequest',
          'UnsubscribeRequest',
          'ResourceUpdatedNotification',
          'RootsListChangedNotification',
          'ElicitationCompleteNotification',
          'ClientRequest',
          'ServerRequest',
          'ServerNotification',
        ]),
      );
    });
  });

  describe('2025-11-25 required members', () => {
    const bases = types.map((type) => ({ type, base: synthesize(defs[type] ?? {}, defs) }));
    const cases: Array<{ type: string; base: unknown; mutation: Mutation; name: string }> = bases.flatMap(
      ({ type, base }) =>
        requiredFieldMutations(defs[type] ?? {}, base, defs).map((mutation) => ({
          type,
          base,
          mutation,
          name: mutation.name,
        })),
    );

    it.each(bases)('$type: a minimal value synthesised from schema.json is valid', ({ type, base }) => {
      expect((exported[`${type}Schema`] as z.ZodType).safeParse(base).error).toBeUndefined();
    });

    it.each(cases)('$type rejects $name', ({ type, base, mutation }) => {
      expect((exported[`${type}Schema`] as z.ZodType).safeParse(applyMutation(base, mutation)).success).toBe(
        false,
      );
    });
  });
}
