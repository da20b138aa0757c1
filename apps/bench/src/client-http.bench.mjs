// Client-path benchmark over HTTP: Boomerang's Client on StreamableHttpClientTransport running the flow workload
// (plain / confirm / wizard, see flows/workload.mjs) against a fetch double that answers in process, like a
// server would (a JSON body per POST; the wizard's state is a plain step counter). No socket and no server code:
// what is measured is the client's own CPU per flow (the Client, its loop, the transport, `Response` reading),
// plus the double's small, fixed share.
//
// Run after `pnpm build`:  node apps/bench/src/client-http.bench.mjs [--duration=3000] [--warmup=1000]
//   [--flows=plain,confirm,wizard] [--concurrency=1,32] [--root=DIR]
// `--root=DIR` loads the client and the HTTP transport from another checkout's build (`DIR/packages/*/dist`), to
// compare two builds in the same session: run it once with each root, alternating.
import { measure, summarize } from './flows/harness.mjs';
import {
  answer,
  CONFIRM_MESSAGE,
  CONFIRM_SCHEMA,
  STEP_SCHEMA,
  stepKey,
  WIZARD_STEPS,
  wizardMessage,
} from './flows/workload.mjs';

const options = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    return [key, value];
  }),
);
const durationMs = Number(options.duration ?? 3000);
const warmupMs = Number(options.warmup ?? 1000);
const flows = (options.flows ?? 'plain,confirm,wizard').split(',');
const concurrency = (options.concurrency ?? '1,32').split(',').map(Number);
const root = options.root;

const [{ Client }, { StreamableHttpClientTransport }] = await Promise.all(
  root === undefined
    ? [import('@boomerang/client'), import('@boomerang/transport-http')]
    : [
        import(`${root}/packages/client/dist/index.js`),
        import(`${root}/packages/transport-http/dist/index.js`),
      ],
);

const JSON_HEADERS = { 'content-type': 'application/json' };
const ask = (key, message, requestedSchema) => ({
  [key]: { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema } },
});
const done = (text) => ({ resultType: 'complete', content: [{ type: 'text', text }] });

/** What the double's server answers to one request of a flow. */
function resultOf(method, params) {
  if (method === 'server/discover') {
    return {
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {} },
      ttlMs: 0,
      cacheScope: 'private',
    };
  }
  const { name, requestState } = params;
  if (name === 'plain') return done('plain');
  if (name === 'confirm') {
    return requestState === undefined
      ? {
          resultType: 'input_required',
          inputRequests: ask('ok', CONFIRM_MESSAGE, CONFIRM_SCHEMA),
          requestState: 'c',
        }
      : done('confirmed');
  }
  const step = requestState === undefined ? 0 : Number(requestState);
  if (step >= WIZARD_STEPS) return done('wizard');
  return {
    resultType: 'input_required',
    inputRequests: ask(stepKey(step + 1), wizardMessage(step + 1), STEP_SCHEMA),
    requestState: String(step + 1),
  };
}

/** The fetch double: reads the POSTed message and answers it with a JSON body. */
async function fetch(_url, init) {
  const { id, method, params = {} } = JSON.parse(init.body);
  const body = JSON.stringify({ jsonrpc: '2.0', id, result: resultOf(method, params) });
  return new Response(body, { headers: JSON_HEADERS });
}

const client = new Client(
  { name: 'bench-http-client', version: '1.0.0' },
  { elicitation: async (params) => answer(params), cache: false },
);
await client.connect(
  new StreamableHttpClientTransport('http://127.0.0.1:1/mcp', { fetch, onWarning: () => {} }),
);

console.log(
  `\nclient over HTTP (fetch double, no server): ${root ?? 'this checkout'} — node ${process.version}; ` +
    `${warmupMs} ms warm-up + ${durationMs} ms per cell`,
);
const rows = [];
for (const flow of flows) {
  for (const c of concurrency) {
    globalThis.gc?.();
    const slice = await measure((_, i) => client.callTool(flow, { n: i }), {
      concurrency: c,
      warmupMs,
      durationMs,
    });
    const s = summarize([slice]);
    rows.push({
      flow,
      concurrency: c,
      'flows/s': Math.round(s.flowsPerSec),
      'p50 ms': s.p50.toFixed(3),
      'client CPU µs/flow': (1000 * s.cpuMsPerFlow).toFixed(1),
      errors: s.errors,
    });
  }
}
console.table(rows);
await client.close();
