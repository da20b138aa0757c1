// How @boomerang/mcp-server gets zod's JSON Schema converter on Node (package.json "imports", condition `node`):
// synchronously, the first time a zod schema is published, not when the package is imported. A server whose
// schemas are valibot, arktype or JSON Schema never loads zod; one whose schemas are zod finds it loaded already.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { toJSONSchema } from 'zod/v4/core';

/**
 * zod 4's `toJSONSchema` from `zod/v4/core`'s ES module, loaded with `require` (Node ≥ 20.19 loads ES modules
 * synchronously): the very module instance the user's `import 'zod'` already evaluated, not zod's CommonJS copy.
 */
export function loadToJSONSchema(): typeof toJSONSchema {
  const require = createRequire(import.meta.url);
  const core = require(fileURLToPath(import.meta.resolve('zod/v4/core'))) as {
    toJSONSchema: typeof toJSONSchema;
  };
  return core.toJSONSchema;
}
