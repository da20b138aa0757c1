// Dual era over Streamable HTTP, against the real official v1 SDK, both ways, every server a real child process
// listening on 127.0.0.1:
// - the v1 Client (StreamableHTTPClientTransport) talks to `node src/fixtures/boomerang-http.mjs`, a Boomerang
//   McpServer behind `listen`: a 2025-11-25 session with Mcp-Session-Id, server→client requests on the POST's
//   event stream, answers POSTed back;
// - a Boomerang Client (StreamableHttpClientTransport, protocol 'auto') talks to `node src/fixtures/v1-http.mjs`,
//   a v1 McpServer behind its own Streamable HTTP server transport with sessions.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import { boomerangClientSuite } from './test-support/boomerang-client-suite.js';
import { ensureBuilt, fixture } from './test-support/built.js';
import { waitForExit } from './test-support/processes.js';
import { v1ClientSuite } from './test-support/v1-client-suite.js';

/** A server process of the fixtures: its endpoint, its stderr so far, and how to stop it. */
interface Served {
  readonly url: URL;
  log(): string;
  /** Ends stdin (the fixture then closes its sessions and listener and exits 0) and waits until it is gone. */
  stop(): Promise<void>;
}

/** Spawns `node src/fixtures/<name>` and resolves once it printed its `URL` line. */
async function serve(name: string, env: Record<string, string> = {}): Promise<Served> {
  const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn(process.execPath, [fixture(name)], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => {
    log += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<URL>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = /^URL (\S+)$/m.exec(out);
      if (line?.[1] !== undefined) resolve(new URL(line[1]));
    });
    void exited.then((code) => reject(new Error(`${name} exited (${code}) before listening:\n${log}`)));
  });
  return {
    url,
    log: () => log,
    async stop() {
      child.stdin.end();
      await waitForExit(child.pid, name);
      expect(await exited).toBe(0);
    },
  };
}

v1ClientSuite('Streamable HTTP', {
  prepare: ensureBuilt,
  async start(options = {}) {
    const timeout = options.requestTimeoutMs;
    const server = await serve(
      'boomerang-http.mjs',
      timeout === undefined ? {} : { PEER_LEGACY_TIMEOUT_MS: String(timeout) },
    );
    return {
      transport: new StreamableHTTPClientTransport(server.url),
      serverLog: server.log,
      stopped: server.stop,
    };
  },
});

boomerangClientSuite('Streamable HTTP', {
  probeRefusal: -32000,
  async start() {
    const server = await serve('v1-http.mjs');
    return {
      transport: new StreamableHttpClientTransport(server.url),
      serverLog: server.log,
      stopped: server.stop,
    };
  },
});
