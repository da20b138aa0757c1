#!/usr/bin/env node
import { readFileSync } from 'node:fs';
// Which source files and functions one tools/call runs through, as users write and mount it: an McpServer tool
// with a zod input and a resolver that asks once (its question carries the call's argument), served by
// `listen(server)`, called by the Boomerang client over HTTP with an elicitation callback. After a warm-up flow,
// V8's precise coverage counts the functions one more flow runs (both sides, one process); each function is
// mapped through the packages' source maps to its source file. A structure figure, not a benchmark.
//   node --enable-source-maps apps/bench/src/call-path.mjs [--list]      (after `pnpm build`)
import { Session } from 'node:inspector/promises';
import { findSourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Client } from '@boomerang/client';
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { listen } from '@boomerang/transport-http/node';
import { z } from 'zod';

if (!process.execArgv.includes('--enable-source-maps')) {
  console.error('run with: node --enable-source-maps apps/bench/src/call-path.mjs');
  process.exit(2);
}

const server = new McpServer({ name: 'call-path', version: '1.0.0' });
const confirm = resolver({ args: ['id'] }, ({ id }) =>
  elicit(`Proceed with ${id}?`, z.object({ ok: z.boolean() })),
);
server.tool(
  'deploy',
  { input: z.object({ id: z.string() }), resolve: { confirm } },
  async ({ id }, { confirm: answer }) => ({ content: [{ type: 'text', text: `${id}: ${answer.ok}` }] }),
);
const http = await listen(server, { port: 0, host: '127.0.0.1' });
const client = new Client(
  { name: 'call-path', version: '1.0.0' },
  { elicitation: async () => ({ action: 'accept', content: { ok: true } }) },
);
await client.connect(new StreamableHttpClientTransport(new URL(http.url)));
const flow = (id) => client.callTool('deploy', { id });
await flow('warm-up');

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
await session.post('Profiler.takePreciseCoverage'); // resets the counts
const result = await flow('a-42');
const { result: scripts } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');
session.disconnect();
await client.close();
await http.close();
if (result.content[0]?.text !== 'a-42: true') throw new Error(`unexpected result ${JSON.stringify(result)}`);

const root = fileURLToPath(new URL('../../../', import.meta.url));
const functions = new Map(); // "package/src/file.ts:name" → calls
for (const script of scripts) {
  if (
    !script.url.startsWith('file://') ||
    !script.url.includes('/packages/') ||
    !script.url.includes('/dist/')
  ) {
    continue;
  }
  const path = fileURLToPath(script.url);
  const map = findSourceMap(path);
  const text = readFileSync(path, 'utf8');
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const position = (offset) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, column: offset - lineStarts[lo] };
  };
  for (const fn of script.functions) {
    const range = fn.ranges[0];
    if (range === undefined || range.count === 0 || (fn.functionName === '' && range.startOffset === 0))
      continue;
    const { line, column } = position(range.startOffset);
    const entry = map?.findEntry(line, column);
    const source = entry?.originalSource ?? path;
    const file = source.replace(/^file:\/\//, '').replace(root, '');
    if (!file.startsWith('packages/')) continue;
    const key = `${file}:${fn.functionName || '(anonymous)'}:${entry?.originalLine ?? line}`;
    functions.set(key, (functions.get(key) ?? 0) + range.count);
  }
}
const files = new Set([...functions.keys()].map((key) => key.slice(0, key.indexOf(':'))));
const packages = new Set([...files].map((file) => file.split('/')[1]));
console.log(
  `one tools/call that asks once, over HTTP, both sides: ${files.size} files in ${packages.size} packages, ${functions.size} functions`,
);
for (const name of [...packages].sort()) {
  const mine = [...files].filter((file) => file.split('/')[1] === name);
  const count = [...functions.keys()].filter((key) => key.split('/')[1] === name).length;
  console.log(`  ${name}: ${mine.length} files, ${count} functions`);
}
if (process.argv.includes('--list'))
  for (const key of [...functions.keys()].sort()) console.log(`    ${key}`);
