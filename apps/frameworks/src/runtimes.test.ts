// The web fetch handler and the Client on Bun and Deno (their binaries from the `bun` and `deno` npm packages),
// running the BUILT packages: a fetch server on the runtime driven by the Node Client through the mount suite, and
// the Client on the runtime against a Node endpoint (`listen`).

import { ensureBuilt } from '@boomerang/test-kit/built';
import { listen } from '@boomerang/transport-http/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGreeter } from './greeter.examples.mjs';
import { mountSuite } from './test-support/mount-suite.js';
import { appDir, type Child, fixture, lineOf, missing, run, runtimes } from './test-support/runtimes.js';
import { sendRaw } from './test-support/sockets.js';

let unbuilt: string | undefined;
beforeAll(() => {
  unbuilt = ensureBuilt({ appDir }); // the runtimes import the packages' dist, as any consumer does
}, 300_000);

for (const runtime of runtimes) {
  const reason = missing(runtime);
  if (reason !== undefined) console.warn(reason);

  describe.skipIf(reason !== undefined)(runtime.name, () => {
    describe('the fetch handler on it', () => {
      let server: Child | undefined;
      afterAll(async () => {
        await server?.stop();
      });

      mountSuite(
        `createHttpHandler served by ${runtime.name}'s own server (fixtures/fetch-server.mjs)`,
        async () => {
          if (unbuilt !== undefined) throw new Error(unbuilt);
          server = run(runtime, fixture('fetch-server.mjs'));
          const [, url, version] = await lineOf(server, /^URL (\S+) (.+)$/m);
          console.info(`${runtime.name}: serving on ${version}`);
          const endpoint = new URL(String(url));
          return { url: endpoint, send: (request) => sendRaw(endpoint, request), close: async () => {} };
        },
        { maxBodyBytes: 64 * 1024, startTimeoutMs: 60_000 },
      );

      it(`ran on ${runtime.name} itself`, () => {
        expect(server?.stdout()).toMatch(
          new RegExp(`^URL \\S+ ${runtime.name.toLowerCase()} \\d+\\.\\d+\\.\\d+`, 'm'),
        );
      });
    });

    it(`runs the Client on ${runtime.name} (fixtures/client.mjs) against a Node endpoint: an MRTR call`, async () => {
      if (unbuilt !== undefined) throw new Error(unbuilt);
      const endpoint = await listen(createGreeter());
      const client = run(runtime, fixture('client.mjs'), endpoint.url.href);
      try {
        const [, json] = await lineOf(client, /^RESULT (.+)$/m);
        const result = JSON.parse(String(json));
        console.info(`${runtime.name}: client on ${result.version}`);
        expect(result).toEqual({
          version: expect.stringMatching(new RegExp(`^${runtime.name.toLowerCase()} `)),
          protocolVersion: '2026-07-28',
          tools: ['greet'],
          asked: 'Hello, Ada!',
          given: 'Hello, Grace!',
          questions: ['What is your name?'],
        });
        expect(await client.exited).toBe(0);
      } finally {
        await client.stop();
        await endpoint.close();
      }
    }, 60_000);
  });
}
