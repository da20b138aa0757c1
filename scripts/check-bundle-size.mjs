#!/usr/bin/env node
// The size a browser page pays for a Boomerang client: `Client` + `StreamableHttpClientTransport`, bundled by
// esbuild for the browser (minified, ES modules, code splitting as any app bundler does), gzip -9. What the page
// loads at start (the entry and the chunks it imports statically) must stay under the limit below; chunks loaded
// on demand (zod and the protocol's schemas, imported the first time a message fails the hand-written checks of
// @boomerang/protocol/internal; the JSON Schema validator, the first time a tool's `outputSchema` is checked) are
// printed apart. `pnpm test` runs it after the build: a change that makes the client heavier fails CI here.
//   node scripts/check-bundle-size.mjs [--json]      (after `pnpm build`)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The one limit: gzip bytes of the code a page loads at start. */
export const LIMIT_GZIP_BYTES = 40_000;

const root = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = `
import { Client } from '@boomerang/client';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
export async function connect(url) {
  const client = new Client({ name: 'page', version: '1.0.0' });
  await client.connect(new StreamableHttpClientTransport(new URL(url)));
  return client;
}
`;

const outdir = mkdtempSync(join(tmpdir(), 'boomerang-bundle-'));
try {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: join(root, 'apps/bench'), sourcefile: 'page.mjs', loader: 'js' },
    absWorkingDir: root,
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir,
    metafile: true,
    logLevel: 'error',
  });
  const outputs = result.metafile.outputs;
  const entry = Object.keys(outputs).find((file) => outputs[file].entryPoint !== undefined);
  // What loads at start: the entry and everything it imports statically, transitively.
  const atStart = new Set();
  const visit = (file) => {
    if (atStart.has(file)) return;
    atStart.add(file);
    for (const dependency of outputs[file].imports) {
      if (dependency.kind === 'import-statement') visit(dependency.path);
    }
  };
  visit(entry);
  const size = (file) => {
    const bytes = readFileSync(join(root, file));
    return { minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };
  const sum = (files) =>
    files.map(size).reduce((a, b) => ({ minified: a.minified + b.minified, gzip: a.gzip + b.gzip }), {
      minified: 0,
      gzip: 0,
    });
  const jsFiles = Object.keys(outputs).filter((file) => file.endsWith('.js'));
  const start = sum([...atStart]);
  const onDemand = sum(jsFiles.filter((file) => !atStart.has(file)));
  // The heaviest inputs of the start-up code, for the reader of a failure.
  const inputs = new Map();
  for (const file of atStart) {
    for (const [input, { bytesInOutput }] of Object.entries(outputs[file].inputs)) {
      const name = input.includes('node_modules/')
        ? input
            .replace(/^.*node_modules\//, '')
            .split('/')
            .slice(0, input.includes('/zod/') ? 3 : 2)
            .join('/')
        : relative(root, join(root, input)).replace(/^(packages\/[^/]+).*$/, '$1');
      inputs.set(name, (inputs.get(name) ?? 0) + bytesInOutput);
    }
  }
  const heaviest = [...inputs].sort((a, b) => b[1] - a[1]).slice(0, 6);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ limit: LIMIT_GZIP_BYTES, start, onDemand, heaviest }));
  } else {
    const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
    console.log(
      `check-bundle-size: Client + StreamableHttpClientTransport for the browser: ${kB(start.gzip)} gzip at start ` +
        `(${kB(start.minified)} minified; limit ${kB(LIMIT_GZIP_BYTES)}), ${kB(onDemand.gzip)} gzip on demand`,
    );
  }
  if (start.gzip > LIMIT_GZIP_BYTES) {
    console.error(
      `check-bundle-size: ${start.gzip} gzip bytes at start, over the limit of ${LIMIT_GZIP_BYTES} ` +
        `(scripts/check-bundle-size.mjs). Heaviest inputs (minified bytes): ` +
        heaviest.map(([name, bytes]) => `${name} ${bytes}`).join(', '),
    );
    process.exitCode = 1;
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
