// How long StreamableHttpClientTransport takes to read one large answer: a tool result of N MB as one SSE event,
// and as one JSON body, served by a fetch double in 64 KiB chunks (what a socket delivers). The time covers the
// transport's reading, the SSE parsing and the JSON parse of the message; nothing else runs. `--line=N` sends an
// N MB line that never ends instead (a hostile server), and prints when and at what RSS the transport gives up.
//
// Run after `pnpm build`:  node apps/bench/src/client-sse.bench.mjs [--sizes=8,64] [--runs=3] [--chunk=65536]
//   [--line=400] [--root=DIR]   (`--sizes=none --line=400` measures the line alone, in a fresh process)
// `--root=DIR` loads the transport from another checkout's build (`DIR/packages/transport-http/dist`), to compare
// two builds: run it once with each root.
const options = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    return [key, value];
  }),
);
const sizes = options.sizes === 'none' ? [] : (options.sizes ?? '8,64').split(',').map(Number);
const runs = Number(options.runs ?? 3);
const chunkBytes = Number(options.chunk ?? 65_536);
const lineMb = options.line === undefined ? undefined : Number(options.line);
const root = options.root;

const { StreamableHttpClientTransport } = await import(
  root === undefined ? '@boomerang/transport-http' : `${root}/packages/transport-http/dist/index.js`
);

const MB = 1_000_000;
const encoder = new TextEncoder();
const request = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'export', _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
};

/** A JSON-RPC response whose serialisation is `bytes` long (one big text item). */
function responseText(bytes) {
  const head = '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"';
  const tail = '"}]}}';
  return `${head}${'x'.repeat(bytes - head.length - tail.length)}${tail}`;
}

/** A body that hands out `bytes` in `chunkBytes` slices (views, so the producer costs nothing measurable). */
function chunked(bytes) {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.subarray(offset, offset + chunkBytes));
      offset += chunkBytes;
    },
  });
}

/** A body that sends `data: xxx…` forever without a line end, up to `limit` bytes. */
function endlessLine(limit) {
  const slice = encoder.encode('x'.repeat(chunkBytes));
  let sent = 0;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode('event: message\ndata: '));
    },
    pull(controller) {
      if (sent >= limit) {
        controller.close();
        return;
      }
      controller.enqueue(slice.slice()); // a fresh buffer per chunk, as a socket delivers
      sent += slice.length;
    },
  });
}

/** One exchange against a fetch double answering `body` as `type`; its wall and CPU time, and its outcome. */
async function exchange(body, type) {
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  const transport = new StreamableHttpClientTransport('http://127.0.0.1:1/mcp', {
    fetch: async () => new Response(body, { headers: { 'content-type': type } }),
  });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const answer = await transport.request(request);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  await transport.close();
  const ok = 'result' in answer && answer.result.content?.[0]?.text?.length > 0;
  return { wallMs, cpuMs: (used.user + used.system) / 1000, peakRss, ok, error: answer.error?.message };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

console.log(
  `# client-sse: one large answer through StreamableHttpClientTransport (${root ?? 'this checkout'}), ` +
    `${chunkBytes} B chunks, median of ${runs}`,
);
console.log('| answer | size | wall ms | CPU ms | MB/s | peak RSS | outcome |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
for (const sizeMb of sizes) {
  const message = responseText(sizeMb * MB);
  const bodies = {
    'SSE event': encoder.encode(`event: message\ndata: ${message}\n\n`),
    'JSON body': encoder.encode(message),
  };
  for (const [label, bytes] of Object.entries(bodies)) {
    const type = label === 'SSE event' ? 'text/event-stream' : 'application/json';
    const results = [];
    for (let run = 0; run < runs; run++) results.push(await exchange(chunked(bytes), type));
    const wall = median(results.map((r) => r.wallMs));
    const cpu = median(results.map((r) => r.cpuMs));
    const last = results.at(-1);
    const outcome = last.ok ? 'ok' : `failed: ${last.error}`;
    console.log(
      `| ${label} | ${sizeMb} MB | ${wall.toFixed(0)} | ${cpu.toFixed(0)} | ${(sizeMb / (wall / 1000)).toFixed(0)} | ${mib(Math.max(...results.map((r) => r.peakRss)))} | ${outcome} |`,
    );
  }
}

if (lineMb !== undefined) {
  const result = await exchange(endlessLine(lineMb * MB), 'text/event-stream');
  console.log(
    `\nAn unterminated ${lineMb} MB line: ${result.wallMs.toFixed(0)} ms, CPU ${result.cpuMs.toFixed(0)} ms, ` +
      `peak RSS ${mib(result.peakRss)}; ${result.ok ? 'read as an answer' : `outcome: ${result.error}`}`,
  );
}
