// Parse throughput of the hot messages and the package's bundle size, against the built dist/.
// Run: pnpm --filter @boomerang/protocol build && pnpm --filter @boomerang/protocol bench
// Prints numbers only; nothing here asserts a timing.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';

const dist = new URL('../dist/index.js', import.meta.url);
if (!existsSync(fileURLToPath(dist))) {
  console.error('dist/index.js not found: run `pnpm --filter @boomerang/protocol build` first');
  process.exit(1);
}
const {
  CallToolRequestSchema,
  CallToolResultSchema,
  ClientRequestSchema,
  InputRequiredResultSchema,
  JSONRPCMessageSchema,
} = await import(dist.href);

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench-client', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {
    elicitation: { form: {}, url: {} },
    sampling: {},
    roots: {},
  },
};

const toolsCall = {
  jsonrpc: '2.0',
  id: 42,
  method: 'tools/call',
  params: { _meta: meta, name: 'order_book', arguments: { title: 'Dune', quantity: 2, giftWrap: false } },
};

const inputRequired = {
  resultType: 'input_required',
  inputRequests: {
    confirm: {
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'Backorder Dune?',
        requestedSchema: {
          type: 'object',
          properties: {
            confirm: { type: 'boolean', title: 'Confirm' },
            note: { type: 'string', maxLength: 200 },
          },
          required: ['confirm'],
        },
      },
    },
    summary: {
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the order in one line.' } }],
        maxTokens: 100,
      },
    },
    roots: { method: 'roots/list' },
  },
  requestState: 'v1.eyJhbGciOiJYQzIwUDEzMDUifQ.c2VhbGVkLXN0YXRlLWJ5dGVzLWdvLWhlcmU',
};

const blocks = [
  { type: 'text', text: 'Order placed.' },
  { type: 'text', text: 'Estimated delivery: 3 days.', annotations: { audience: ['user'], priority: 0.8 } },
  {
    type: 'image',
    data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk',
    mimeType: 'image/png',
  },
  {
    type: 'resource_link',
    uri: 'https://shop.example/orders/42',
    name: 'order-42',
    mimeType: 'application/json',
  },
  {
    type: 'resource',
    resource: { uri: 'https://shop.example/orders/42/receipt', mimeType: 'text/plain', text: 'Receipt #42' },
  },
  { type: 'audio', data: 'UklGRiQAAABXQVZFZm10IBAAAAABAAEA', mimeType: 'audio/wav' },
  { type: 'text', text: 'Item: Dune (x2)', _meta: { 'com.example/sku': 'B-123' } },
  { type: 'text', text: 'Gift wrap: no' },
  { type: 'text', text: 'Total: 31.98 EUR' },
  { type: 'text', text: 'Thank you!' },
];
const callToolResult = {
  resultType: 'complete',
  content: blocks,
  structuredContent: { orderId: 42, total: 31.98, currency: 'EUR' },
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'shop', version: '1.0.0' } },
};

/** Runs `fn` for about `SECONDS` after a warm-up; returns operations per second. */
function measure(fn) {
  const warmUntil = performance.now() + 300;
  while (performance.now() < warmUntil) fn();
  let ops = 0;
  const start = performance.now();
  const end = start + SECONDS * 1000;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 1000; i++) fn();
    ops += 1000;
    now = performance.now();
  }
  return (ops / (now - start)) * 1000;
}

/** Throws when a bench message does not parse, so a schema change cannot turn the bench into error timing. */
function assertValid(schema, value, label) {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`${label}: bench fixture does not parse: ${result.error.message}`);
}

assertValid(ClientRequestSchema, toolsCall, 'tools/call');
assertValid(InputRequiredResultSchema, inputRequired, 'InputRequiredResult');
assertValid(CallToolResultSchema, callToolResult, 'CallToolResult');

/**
 * `z.compile(schema)` (zod 4.6's ahead-of-time compiler, the candidate fix should parsing ever dominate), saying
 * so when zod refuses and keeps (part of) the runtime parser.
 */
function compiledOrNote(schema, label) {
  try {
    return z.compile(schema, { strict: true });
  } catch (error) {
    console.log(`  (z.compile refused ${label}: ${error.message})`);
    return z.compile(schema);
  }
}

/** One message: its text (for the JSON.parse baseline) and the schemas to time on the parsed value. */
const messages = [
  {
    name: '(a) tools/call request',
    value: toolsCall,
    schemas: [
      ['JSONRPCMessageSchema (envelope only)', JSONRPCMessageSchema],
      ['CallToolRequestSchema', CallToolRequestSchema],
      ['ClientRequestSchema (by method)', ClientRequestSchema],
      ['z.compile(ClientRequestSchema)', compiledOrNote(ClientRequestSchema, 'ClientRequestSchema')],
    ],
  },
  {
    name: '(b) InputRequiredResult (elicit + sample + roots + state)',
    value: inputRequired,
    schemas: [
      ['InputRequiredResultSchema', InputRequiredResultSchema],
      [
        'z.compile(InputRequiredResultSchema)',
        compiledOrNote(InputRequiredResultSchema, 'InputRequiredResult'),
      ],
    ],
  },
  {
    name: '(c) CallToolResult, 10 content blocks',
    value: callToolResult,
    schemas: [
      ['CallToolResultSchema', CallToolResultSchema],
      ['z.compile(CallToolResultSchema)', compiledOrNote(CallToolResultSchema, 'CallToolResultSchema')],
    ],
  },
];

/** One result line: label, messages per second, microseconds per message. */
function row(label, perSecond) {
  const rate = Math.round(perSecond).toLocaleString('en-US').padStart(11);
  const micros = (1e6 / perSecond).toFixed(2).padStart(7);
  return `    ${label.padEnd(40)} ${rate} msg/s ${micros} µs`;
}

console.log(
  `@boomerang/protocol parse throughput (${SECONDS}s per case after warm-up, node ${process.version})`,
);
for (const { name, value, schemas } of messages) {
  const text = JSON.stringify(value);
  console.log(`  ${name}: ${text.length} bytes of JSON`);
  console.log(
    row(
      'JSON.parse(text) (baseline)',
      measure(() => JSON.parse(text)),
    ),
  );
  for (const [label, schema] of schemas) {
    assertValid(schema, value, label);
    console.log(
      row(
        label,
        measure(() => schema.parse(value)),
      ),
    );
  }
}

// Bundle size: dist/index.js minified and gzipped, with zod external and with zod bundled in.
const require = createRequire(createRequire(import.meta.url).resolve('tsup/package.json'));
const esbuild = require('esbuild');
const entry = fileURLToPath(dist);

/** Bundles dist/index.js with esbuild (minified, `external` left out); returns raw and gzipped byte counts. */
async function gzippedSize(external) {
  const out = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    external,
    logLevel: 'silent',
  });
  const code = out.outputFiles[0].contents;
  return { raw: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const alone = await gzippedSize(['zod', 'zod/*']);
const withZod = await gzippedSize([]);
console.log('@boomerang/protocol ESM size (dist/index.js, esbuild --minify, gzip -9)');
console.log(`  zod external: ${kb(alone.raw)} minified, ${kb(alone.gzip)} gzipped`);
console.log(
  `  zod included: ${kb(withZod.raw)} minified, ${kb(withZod.gzip)} gzipped (zod itself is most of it)`,
);
