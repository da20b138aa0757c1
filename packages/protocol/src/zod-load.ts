// How @boomerang/protocol gets zod where it cannot load a module synchronously on demand (browsers, workers,
// bundles): a static import, so zod loads with the package. `#zod` resolves here by default; Node gets
// zod-load.node.ts (package.json "imports").
import { z } from 'zod';

/** The zod namespace the schemas are built with. */
export function loadZod(): typeof z {
  return z;
}
