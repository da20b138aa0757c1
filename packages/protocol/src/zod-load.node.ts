// How @boomerang/protocol gets zod on Node (package.json "imports", condition `node`): synchronously, the first
// time a schema is built, not when the package is imported. A stdio or HTTP server whose requests all pass the
// hand-written checks (fast-parse.ts) never compiles zod's ~850 KB at all, which is most of its cold start.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';

/**
 * The zod namespace the schemas are built with: zod's ES module, loaded with `require` (Node ≥ 20.19 loads ES
 * modules synchronously), so it is the very instance `import 'zod'` gives everyone else in the process.
 */
export function loadZod(): typeof z {
  const require = createRequire(import.meta.url);
  return (require(fileURLToPath(import.meta.resolve('zod'))) as { z: typeof z }).z;
}
