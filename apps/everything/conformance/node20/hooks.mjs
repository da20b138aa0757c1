// Module hooks registered by ./preload.mjs on Node < 22: the conformance bundle's `fs` gains a `globSync`
// (Node 22 API) that throws if ever called. Only imports made from inside the conformance package are
// redirected; everything else sees the real `node:fs`.
const SHIM = 'boomerang-node20:fs';

const shimSource = `
import fs from 'node:fs';
export * from 'node:fs';
export default fs;
export function globSync() {
  throw new Error('fs.globSync needs Node 22 (the conformance CLI uses it only in tier-check)');
}
`;

export async function resolve(specifier, context, nextResolve) {
  const fromSuite = context.parentURL?.includes('/@modelcontextprotocol/conformance/') === true;
  if (fromSuite && (specifier === 'fs' || specifier === 'node:fs')) return { url: SHIM, shortCircuit: true };
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (url === SHIM) return { format: 'module', source: shimSource, shortCircuit: true };
  return nextLoad(url, context);
}
