// The page's node:http server on real sockets (127.0.0.1): idle sockets cannot lock people out, because its
// connections are bounded as listen() bounds an MCP endpoint. Counts, not time: how many idle sockets the server
// closed, how many connections it holds, how many newcomers it served.
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Served, type ServeOptions, serve } from './serve.js';

const running: Served[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function start(options: ServeOptions = {}): Promise<Served> {
  const served = await serve(() => async () => new Response('inbox'), options);
  running.push(served);
  return served;
}

/** Opens `count` raw sockets that never send anything; `closed` holds the indexes of those the server closed. */
async function idleSockets(origin: URL, count: number) {
  const closed = new Set<number>();
  for (let i = 0; i < count; i++) {
    const socket = connect(Number(origin.port), origin.hostname);
    sockets.push(socket);
    socket.on('error', () => {});
    socket.once('close', () => closed.add(i));
    await once(socket, 'connect');
  }
  return closed;
}

/** `count` new visitors, each on a connection of its own: the bodies they got, or why not. */
function visitors(origin: URL, count: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      fetch(origin, { headers: { connection: 'close' } }).then(
        (response) => response.text(),
        (error: unknown) => `failed: ${String(error)}`,
      ),
    ),
  );
}

describe('serve: connection limits', () => {
  it('at the cap, the socket idle longest makes room, and every newcomer is served', async () => {
    const web = await start({ limits: { maxConnections: 16 } });
    const closed = await idleSockets(web.origin, 200);
    await vi.waitFor(() => expect(closed.size).toBe(184));
    expect([...closed].sort((a, b) => a - b)).toEqual([...Array(184).keys()]);
    expect(await visitors(web.origin, 15)).toEqual(Array(15).fill('inbox'));
  });

  it("applies listen()'s limits by default: 1,100 idle sockets leave the page open to 15 of 15 newcomers", async () => {
    const web = await start();
    const closed = await idleSockets(web.origin, 1100);
    // 512 kept (listen()'s default cap), the 588 oldest closed: the process keeps descriptors to spare.
    await vi.waitFor(() => expect(closed.size).toBe(588), { timeout: 10_000 });
    expect(await visitors(web.origin, 15)).toEqual(Array(15).fill('inbox'));
  });

  it('refuses limits that are not positive integers', async () => {
    await expect(start({ limits: { maxConnections: 0 } })).rejects.toThrow(RangeError);
  });
});
