// Hostile inputResponses benchmark: how long one request with N invalid (or valid) answers holds the event loop,
// through McpServer.handle with the JSON text an HTTP endpoint would hand it (parse included). The answers are
// for questions the tool never asked: a bounded server refuses them before validating them. The baseline row is the
// same JSON as a tool argument: what parsing such a body costs anyway.
//
// Run after `pnpm build`:
//   node apps/bench/src/input-responses.bench.mjs [--entries=100000] [--runs=5]
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { z } from 'zod';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, Number(value)];
  }),
);
const entries = args.entries ?? 100_000;
const runs = args.runs ?? 5;

const mcp = new McpServer({ name: 'bench', version: '1.0.0' }, { logger: {} });
const confirm = resolver({}, () => elicit('Proceed?', z.object({ ok: z.boolean() })));
mcp.tool('ask', { resolve: { confirm } }, () => ({ content: [{ type: 'text', text: 'done' }] }));
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};
const first = await mcp.handle({
  jsonrpc: '2.0',
  id: 0,
  method: 'tools/call',
  params: { _meta: meta, name: 'ask' },
});
const requestState = first.result.requestState;

function body(valid) {
  const inputResponses = {};
  for (let i = 0; i < entries; i++) {
    inputResponses[`k${i}`] = valid ? { action: 'decline' } : { action: 'nope', bogus: i };
  }
  const params = { _meta: meta, name: 'ask', inputResponses, requestState };
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
}

/** The same JSON as the invalid answers, as a tool argument the tool accepts as is: what parsing alone costs. */
function baseline() {
  const data = {};
  for (let i = 0; i < entries; i++) data[`k${i}`] = { action: 'nope', bogus: i };
  const params = { _meta: meta, name: 'echo', arguments: { data } };
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
}
mcp.tool('echo', { input: z.object({ data: z.unknown() }) }, () => ({ content: [] }));

console.log(
  `inputResponses with ${entries.toLocaleString('en')} entries for unasked questions, ${runs} runs`,
);
for (const kind of ['baseline', 'invalid', 'valid']) {
  const text = kind === 'baseline' ? baseline() : body(kind === 'valid');
  const times = [];
  let answer;
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    answer = await mcp.handle(text);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const mb = (Buffer.byteLength(text) / 1e6).toFixed(1);
  const error = answer?.error?.message?.slice(0, 70) ?? answer?.result?.resultType;
  console.log(`  ${kind.padEnd(8)} ${mb} MB: median ${median.toFixed(1)} ms per request → ${error}`);
}
