// How @boomerang/mcp-server gets zod's JSON Schema converter where it cannot load a module synchronously on demand
// (browsers, workers, bundles): a static import. `#zod-json-schema` resolves here by default; Node gets
// zod-json-schema.node.ts (package.json "imports"), which loads it only when a zod schema is first published.
import { toJSONSchema } from 'zod/v4/core';

/** zod 4's `toJSONSchema` (the one of `zod/v4/core`, which every zod 4 schema, classic or mini, converts with). */
export function loadToJSONSchema(): typeof toJSONSchema {
  return toJSONSchema;
}
