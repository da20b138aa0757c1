// listen()'s connection limits on real sockets (127.0.0.1): idle sockets cannot exhaust the server, slow ones
// time out, and a newcomer finds room or a clear 503.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLimitedServer, type Listening, listen } from './node.js';
import { headersFor, makeServer, type Observed, rpc } from './test-support/fixture.js';

const running: Listening[] = [];
const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(running.splice(0).map((server) => server.close()));
  for (const server of servers.splice(0)) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

async function start(...args: Parameters<typeof listen>): Promise<Listening> {
  const server = await listen(...args);
  running.push(server);
  return server;
}

/** A raw socket to `url` that says nothing; `closed` resolves once the server closed it, with what it wrote. */
async function idleSocket(url: URL) {
  const socket = connect(Number(url.port), url.hostname);
  sockets.push(socket);
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('utf8');
  });
  socket.on('error', () => {});
  const closed = once(socket, 'close').then(() => received);
  await once(socket, 'connect');
  return { socket, closed };
}

const isClosed = (closed: Promise<string>, ms: number) =>
  Promise.race([closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, ms, false))]);

const list = rpc('tools/list');
const post = (url: URL, body: unknown = list) =>
  fetch(url, {
    method: 'POST',
    headers: headersFor(body as never),
    body: JSON.stringify(body),
  });

/** Sends one keep-alive POST of `tools/list` over a raw socket; resolves to the response's text once it is in. */
function askOver(socket: Socket, url: URL): Promise<string> {
  let received = '';
  const answered = new Promise<string>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      if (received.includes('"result"')) resolve(received);
    });
  });
  const body = JSON.stringify(list);
  const head = [...headersFor(list)].map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.write(
    `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n${head}` +
      `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return answered;
}

describe('listen: connection limits', () => {
  it('idle sockets cannot exhaust it: at maxConnections, the one idle longest makes room', async () => {
    const server = await start(makeServer(), { maxConnections: 4 });
    const idle = [];
    for (let i = 0; i < 10; i++) idle.push(await idleSocket(server.url));
    // The six oldest were closed to make room (well before any timeout); the four newest are kept.
    const verdicts = await Promise.all(idle.map(({ closed }) => isClosed(closed, 1000)));
    expect(verdicts).toEqual([true, true, true, true, true, true, false, false, false, false]);
    const response = await post(server.url);
    expect(response.status).toBe(200);
    await response.text();
  });

  it('makes room by closing the connection used least recently: a keep-alive client that just asked stays', async () => {
    const server = await start(makeServer(), { maxConnections: 3 });
    const first = await idleSocket(server.url);
    const second = await idleSocket(server.url);
    const third = await idleSocket(server.url);
    // The oldest connection asks (keep-alive) and gets its answer: now it is the one used most recently.
    expect(await askOver(first.socket, server.url)).toMatch(/^HTTP\/1\.1 200/);
    const fourth = await idleSocket(server.url);
    const verdicts = await Promise.all(
      [first, second, third, fourth].map(({ closed }) => isClosed(closed, 500)),
    );
    expect(verdicts).toEqual([false, true, false, false]);
  });

  it('counts a connection whose response finished as idle: a newcomer at the cap takes its place', async () => {
    const server = await start(makeServer(), { maxConnections: 1 });
    const first = await idleSocket(server.url);
    expect(await askOver(first.socket, server.url)).toMatch(/^HTTP\/1\.1 200/);
    const second = await idleSocket(server.url);
    expect(await isClosed(first.closed, 500)).toBe(true);
    expect(await askOver(second.socket, server.url)).toMatch(/^HTTP\/1\.1 200/);
  });

  it('closes a socket that sends no headers within headersTimeoutMs (408)', async () => {
    const server = await start(makeServer(), { headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const { closed } = await idleSocket(server.url);
    expect(await isClosed(closed, 2500)).toBe(true);
    expect(await closed).toMatch(/^HTTP\/1\.1 408/);
  });

  it('answers 503 (Retry-After, Connection: close) when every kept connection is busy, and serves again after', async () => {
    const observed: Observed = { slowSignals: [] };
    const server = await start(makeServer(observed), { maxConnections: 2 });
    const slow = rpc('tools/call', { name: 'slow' });
    const aborts = [new AbortController(), new AbortController()];
    const busy = aborts.map(({ signal }) =>
      fetch(server.url, {
        method: 'POST',
        headers: headersFor(slow),
        body: JSON.stringify(slow),
        signal,
      }).catch(() => undefined),
    );
    await vi.waitFor(() => expect(observed.slowSignals).toHaveLength(2));
    const refused = await post(server.url);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('connection')).toBe('close');
    await refused.text();
    for (const abort of aborts) abort.abort();
    await Promise.all(busy);
    await vi.waitFor(() => expect(observed.slowSignals.every((signal) => signal.aborted)).toBe(true));
    const served = await post(server.url);
    expect(served.status).toBe(200);
    await served.text();
  });

  it('bounds requests, not responses: a call outlives requestTimeoutMs once its request is in', async () => {
    const observed: Observed = { slowSignals: [] };
    const server = await start(makeServer(observed), { headersTimeoutMs: 100, requestTimeoutMs: 200 });
    const slow = rpc('tools/call', { name: 'slow' });
    const abort = new AbortController();
    const call = fetch(server.url, {
      method: 'POST',
      headers: headersFor(slow),
      body: JSON.stringify(slow),
      signal: abort.signal,
    }).catch(() => undefined);
    await vi.waitFor(() => expect(observed.slowSignals).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(observed.slowSignals[0]?.aborted).toBe(false);
    abort.abort();
    await call;
  });

  it('rejects limits that are not positive integers, and a request timeout under the headers timeout', async () => {
    await expect(listen(makeServer(), { maxConnections: 0 })).rejects.toThrow(RangeError);
    await expect(listen(makeServer(), { keepAliveTimeoutMs: 1.5 })).rejects.toThrow(RangeError);
    await expect(listen(makeServer(), { headersTimeoutMs: 5000, requestTimeoutMs: 1000 })).rejects.toThrow(
      RangeError,
    );
  });
});

describe('createLimitedServer: the same limits for a server of yours', () => {
  it('keeps at most maxConnections: idle sockets make room, and every newcomer is served', async () => {
    let served = 0;
    const server = createLimitedServer({ maxConnections: 4 }, (_req, res) => {
      served++;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    });
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const idle = [];
    for (let i = 0; i < 40; i++) idle.push(await idleSocket(url));
    const closed = new Set<number>();
    idle.forEach(({ closed: done }, i) => void done.then(() => closed.add(i)));
    // The 36 oldest were closed to make room; the server holds no more than its cap.
    await vi.waitFor(() => expect(closed.size).toBe(36));
    expect([...closed].sort((a, b) => a - b)).toEqual([...Array(36).keys()]);
    const open = await new Promise<number>((resolve, reject) =>
      server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
    expect(open).toBe(4);
    const answers = await Promise.all(
      Array.from({ length: 15 }, () => fetch(url).then((response) => response.text())),
    );
    expect(answers).toEqual(Array(15).fill('hello'));
    expect(served).toBe(15);
  });

  it('checks its limits as listen() does', () => {
    const ok = () => {};
    expect(() => createLimitedServer({ maxConnections: 0 }, ok)).toThrow(RangeError);
    expect(() => createLimitedServer({ headersTimeoutMs: 5000, requestTimeoutMs: 1000 }, ok)).toThrow(
      RangeError,
    );
    const server = createLimitedServer({}, ok);
    expect([server.maxConnections, server.headersTimeout, server.requestTimeout]).toEqual([
      1024, 10_000, 30_000,
    ]);
  });
});
