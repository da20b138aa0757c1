// Runs every benchmark of this folder in sequence (each prints its own table).
const scripts = [
  './seal.bench.mjs',
  './flows.bench.mjs',
  './mcp-server.bench.mjs',
  './transports.bench.mjs',
  './web-runtimes.bench.mjs',
  './cold-start.bench.mjs',
  './client-http.bench.mjs',
  './client-sse.bench.mjs',
  './input-responses.bench.mjs',
  './tasks.bench.mjs',
];
for (const script of scripts) await import(script);
