// The fuzz targets, in the order `pnpm fuzz` runs them.
import { httpEndpointTarget } from './http-endpoint.js';
import { parseMessageTarget } from './parse-message.js';
import { resolversTargets } from './resolvers.js';
import { sealTarget } from './seal.js';
import type { FuzzTarget } from './target.js';

export { type FuzzReport, type FuzzRunOptions, type FuzzTarget, runTarget } from './target.js';

/** Every fuzz target. */
export const TARGETS: readonly FuzzTarget[] = [
  parseMessageTarget,
  sealTarget,
  httpEndpointTarget,
  ...resolversTargets,
];
