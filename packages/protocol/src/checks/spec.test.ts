// The hand-written checks on the official examples of the 2026-07-28 schema (../shared/spec): every example of a
// checked message passes its check (so a valid message never waits for zod), and every "break one required
// member" mutation of it gets zod's verdict (the check never vouches for it).
import { describe, expect, it } from 'vitest';
import {
  applyMutation,
  loadSpec,
  requiredFieldMutations,
  specMissing,
  synthesize,
} from '../schema/test-support/spec-harness.js';
import { type CheckedName, verdictOf } from './index.js';
import { CHECKED_SCHEMAS } from './on-demand.js';

const spec = loadSpec('2026-07-28');

/** The checked message a response's `result` is, by the response's type and the result's `resultType`. */
function resultOf(responseType: string, result: { resultType?: unknown }): CheckedName | undefined {
  if (result.resultType === 'input_required') return 'InputRequiredResult';
  const name = responseType.replace(/Response$/, '');
  return name in CHECKED_SCHEMAS ? (name as CheckedName) : undefined;
}

if (!spec) {
  console.warn(`skipping the checks' spec tests: ${specMissing}`);
  describe.skip('hand-written checks on the 2026-07-28 examples (../shared/spec not found)', () => {
    it(specMissing, () => {});
  });
} else {
  const s = spec;
  const names = Object.keys(CHECKED_SCHEMAS) as CheckedName[];
  const examples = names.flatMap((name) =>
    (s.examples.get(name) ?? []).map(([file, value]) => ({ name, file, value })),
  );
  // The input requests a server may embed, each under a key (`InputRequests`), and the results responses carry.
  for (const type of ['ElicitRequest', 'CreateMessageRequest', 'ListRootsRequest']) {
    for (const [file, value] of s.examples.get(type) ?? []) {
      examples.push({ name: 'InputRequests', file: `${type}/${file}`, value: { q: value } });
    }
  }
  for (const [type, files] of s.examples) {
    if (!type.endsWith('ResultResponse')) continue;
    for (const [file, value] of files) {
      const result = (value as { result: { resultType?: unknown } }).result;
      const name = resultOf(type, result);
      if (name !== undefined) examples.push({ name, file: `${type}/${file}`, value: result });
    }
  }

  describe('hand-written checks on the 2026-07-28 examples', () => {
    it('has examples of most checked messages', () => {
      const covered = new Set(examples.map((example) => example.name));
      // The tasks extension is not part of the 2026-07-28 schema.
      expect([...covered].sort()).toEqual(names.filter((name) => !/Task/.test(name)).sort());
    });

    it.each(examples)('$name $file: zod accepts it; so does the check, at once', ({ name, value }) => {
      const zods = CHECKED_SCHEMAS[name].safeParse(value);
      // A `resources/read` response may omit `ttlMs` and `cacheScope` (the spec's own example does); the
      // client's `ReadResourceResult` does not: zod rejects it, and so must the check not vouch for it.
      if (!zods.success) {
        expect(verdictOf(name, value)).not.toBe(true);
        return;
      }
      expect(verdictOf(name, value)).toBe(true);
    });

    const mutations = names.flatMap((name) => {
      const def = s.defs[name];
      if (def === undefined) return [];
      const base = s.examples.get(name)?.[0]?.[1] ?? synthesize(def, s.defs);
      return requiredFieldMutations(def, base, s.defs).map((mutation) => ({
        name,
        mutation: mutation.name,
        value: applyMutation(base, mutation),
      }));
    });

    it('breaks every checked message it has a definition of', () => {
      expect(mutations.length).toBeGreaterThan(50);
    });

    it.each(mutations)(
      '$name with $mutation: zod rejects it, and the check never vouches for it',
      ({ name, value }) => {
        expect(CHECKED_SCHEMAS[name].safeParse(value).success).toBe(false);
        expect(verdictOf(name, value)).not.toBe(true);
      },
    );
  });
}
