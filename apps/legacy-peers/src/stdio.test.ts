// Dual era over stdio, against the real official v1 SDK, both ways, every peer a real child process:
// - the v1 Client spawns `node src/fixtures/boomerang-stdio.mjs` (a Boomerang McpServer on the BUILT packages);
// - a Boomerang Client spawns `node src/fixtures/v1-stdio.mjs` (a v1 McpServer).
import { StdioClientTransport as BoomerangStdioClientTransport } from '@boomerang/transport-stdio';
import {
  getDefaultEnvironment,
  StdioClientTransport as V1StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'vitest';
import { boomerangClientSuite } from './test-support/boomerang-client-suite.js';
import { ensureBuilt, fixture } from './test-support/built.js';
import { waitForExit } from './test-support/processes.js';
import { v1ClientSuite } from './test-support/v1-client-suite.js';

/** The v1 stdio transport forgets its pid on close: this one remembers it, to check the process is gone. */
class PidKeepingTransport extends V1StdioClientTransport {
  startedPid: number | undefined;

  override async start(): Promise<void> {
    await super.start();
    this.startedPid = this.pid ?? undefined;
  }
}

v1ClientSuite('stdio', {
  prepare: ensureBuilt,
  async start(options = {}) {
    const timeout = options.requestTimeoutMs;
    const transport = new PidKeepingTransport({
      command: process.execPath,
      args: [fixture('boomerang-stdio.mjs')],
      stderr: 'pipe',
      // Over the v1 transport's default environment (PATH, HOME, …), as its `env` option always is.
      env: {
        ...getDefaultEnvironment(),
        ...(timeout === undefined ? {} : { PEER_LEGACY_TIMEOUT_MS: String(timeout) }),
      },
    });
    let log = '';
    // A PassThrough from construction on, so nothing the server logs before connect is lost.
    transport.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
    });
    return {
      transport,
      serverLog: () => log,
      stopped: () => waitForExit(transport.startedPid, 'the Boomerang server'),
    };
  },
});

boomerangClientSuite('stdio', {
  async start() {
    const transport = new BoomerangStdioClientTransport({
      command: process.execPath,
      args: [fixture('v1-stdio.mjs')],
      stderr: 'pipe',
    });
    await transport.start(); // spawns it now, so that its stderr can be read from the first byte
    let log = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
    });
    return {
      transport,
      serverLog: () => log,
      async stopped() {
        await waitForExit(transport.pid, 'the v1 server');
        // It ended by itself when its stdin closed: no SIGTERM/SIGKILL from the transport was needed.
        expect(transport.exit).toEqual({ code: 0, signal: null });
      },
    };
  },
});
