// CommonJS on Node >= 20.19 loads the ESM-only packages with require() (require(esm)).
const { Client } = require('@boomerang/client');
const { McpServer } = require('@boomerang/mcp-server');
const { createSealer, generateKey } = require('@boomerang/seal');

const sealer = createSealer({ keys: [generateKey()] });
const opened = sealer.unsealJson(sealer.sealJson({ ok: true }));
console.log(JSON.stringify({ client: typeof Client, server: typeof McpServer, opened }));
