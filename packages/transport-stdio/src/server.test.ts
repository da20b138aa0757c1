import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@boomerang/protocol';
import { isJSONRPCErrorResponse, parseMessage } from '@boomerang/protocol/transport';
import { within } from '@boomerang/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleFixtures, type FixtureBundle } from '../test-fixtures/bundle.js';
import { Processes } from '../test-fixtures/support.js';
import { StdioServerTransport, type StdioServerTransportOptions } from './index.js';

/** A server transport over in-memory pipes, with readers for its messages and for the lines it writes. */
function serve(options: StdioServerTransportOptions = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new StdioServerTransport({ stdin, stdout, ...options });
  const messages = transport.messages[Symbol.asyncIterator]();
  const lines = createInterface({ input: stdout, crlfDelay: Number.POSITIVE_INFINITY })[
    Symbol.asyncIterator
  ]();
  const nextLine = async (): Promise<unknown> => {
    const next = await within('a line on stdout', lines.next());
    return next.done ? undefined : JSON.parse(next.value);
  };
  const nextMessage = async () => within('a message', messages.next());
  return { stdin, stdout, transport, messages, nextLine, nextMessage };
}

const request = (id: number | string, method = 'tools/list'): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method,
});
const line = (message: JSONRPCMessage) => `${JSON.stringify(message)}\n`;

describe('StdioServerTransport: framing', () => {
  it('reads a request and writes a response as one line', async () => {
    const { stdin, transport, nextMessage, nextLine } = serve();
    stdin.write(line(request(1)));
    expect(await nextMessage()).toEqual({ done: false, value: request(1) });
    await transport.send({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', tools: [] } });
    expect(await nextLine()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { resultType: 'complete', tools: [] },
    });
  });

  it('joins a message split across one-byte chunks (multi-byte characters included)', async () => {
    const { stdin, nextMessage } = serve();
    const message = {
      jsonrpc: '2.0',
      id: 'é',
      method: 'tools/call',
      params: { name: '日本 🪃' },
    } as JSONRPCMessage;
    for (const byte of Buffer.from(line(message))) stdin.write(Buffer.of(byte));
    expect((await nextMessage()).value).toEqual(message);
  });

  it('reads many messages from one chunk, with CRLF line ends and blank lines between them', async () => {
    const { stdin, nextMessage } = serve();
    const many = Array.from({ length: 500 }, (_, i) => request(i));
    stdin.write(
      many.map((m, i) => `${JSON.stringify(m)}${i % 2 ? '\r\n' : '\n'}${i % 7 ? '' : '\n  \r\n'}`).join(''),
    );
    for (const message of many) expect((await nextMessage()).value).toEqual(message);
  });

  it('reads and writes a message of several MB', async () => {
    const { stdin, transport, nextMessage, nextLine } = serve();
    const text = 'abc é 日本 🪃 '.repeat(400_000); // ≈ 7 MB of UTF-8
    const big = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'upload', arguments: { text } },
    };
    const bytes = Buffer.from(line(big as JSONRPCMessage));
    for (let i = 0; i < bytes.length; i += 65_536) stdin.write(bytes.subarray(i, i + 65_536));
    expect((await nextMessage()).value).toEqual(big);
    await transport.send({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', text } });
    expect(await nextLine()).toEqual({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', text } });
  });
});

describe('StdioServerTransport: hostile lines are answered, never yielded, and serving goes on', () => {
  const cases: [name: string, input: string | Buffer, code: number, id?: number | string][] = [
    ['not JSON', 'hello', -32700],
    ['truncated JSON', '{"jsonrpc":"2.0","id":1,"method":', -32700],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), -32700],
    ['a batch (array)', '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]', -32600],
    ['an empty array', '[]', -32600],
    ['a number', '42', -32600],
    ['a string', '"tools/list"', -32600],
    ['null', 'null', -32600],
    ['no jsonrpc member (id echoed)', '{"id":7,"method":"tools/list"}', -32600, 7],
    ['jsonrpc 1.0 (id echoed)', '{"jsonrpc":"1.0","id":"a","method":"tools/list"}', -32600, 'a'],
    ['an object id (not echoed)', '{"jsonrpc":"2.0","id":{},"method":"tools/list"}', -32600],
    ['a non-string method', '{"jsonrpc":"2.0","id":3,"method":5}', -32600, 3],
  ];
  for (const [name, input, code, id] of cases) {
    it(`${name} → ${code}`, async () => {
      const { stdin, nextMessage, nextLine } = serve();
      stdin.write(input);
      stdin.write('\n');
      stdin.write(line(request('next')));
      const answer = await nextLine();
      expect(isJSONRPCErrorResponse(answer)).toBe(true);
      expect(answer).toMatchObject({ jsonrpc: '2.0', error: { code } });
      if (id === undefined) expect(answer).not.toHaveProperty('id');
      else expect(answer).toHaveProperty('id', id);
      expect((await nextMessage()).value).toEqual(request('next'));
    });
  }

  it('a line over maxMessageBytes → -32600, discarded while it streams in', async () => {
    const { stdin, nextMessage, nextLine } = serve({ maxMessageBytes: 1024 });
    for (let i = 0; i < 100; i++) stdin.write('x'.repeat(1000));
    stdin.write(`\n${line(request('after'))}`);
    expect(await nextLine()).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(/1024 bytes/) },
    });
    expect((await nextMessage()).value).toEqual(request('after'));
  });

  it('rejects a maxMessageBytes that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => new StdioServerTransport({ maxMessageBytes: bad })).toThrow(RangeError);
    }
  });
});

describe('StdioServerTransport: lifecycle', () => {
  it('reads nothing until messages is iterated', () => {
    const stdin = new PassThrough();
    const transport = new StdioServerTransport({ stdin, stdout: new PassThrough() });
    expect(stdin.listenerCount('data')).toBe(0);
    transport.messages[Symbol.asyncIterator]();
    expect(stdin.listenerCount('data')).toBe(1);
  });

  it('stdin EOF ends the iteration after the queued messages and closes the transport', async () => {
    const { stdin, stdout, transport, nextMessage } = serve();
    stdin.end(`${line(request(1))}${JSON.stringify(request(2))}`); // the last line has no line end
    expect((await nextMessage()).value).toEqual(request(1));
    expect((await nextMessage()).value).toEqual(request(2));
    expect((await nextMessage()).done).toBe(true);
    await expect(transport.send(request(3))).rejects.toThrow('stdio transport is closed: stdin ended');
    await within('stdout ends', once(stdout, 'end'));
  });

  it('close() ends a pending read, ends stdout, stops reading stdin, and is idempotent', async () => {
    const { stdin, stdout, transport, nextMessage } = serve();
    const pending = nextMessage();
    stdout.resume();
    await Promise.all([transport.close(), transport.close()]);
    expect((await pending).done).toBe(true);
    expect(stdout.writableEnded).toBe(true);
    expect(stdin.listenerCount('data')).toBe(0);
    await transport[Symbol.asyncDispose]();
    await expect(transport.send(request(1))).rejects.toThrow(/^stdio transport is closed$/);
  });

  it('leaving a for await early closes the transport', async () => {
    const stdin = new PassThrough();
    const transport = new StdioServerTransport({ stdin, stdout: new PassThrough() });
    stdin.write(line(request(1)));
    for await (const _message of transport.messages) break;
    await expect(transport.send(request(2))).rejects.toThrow(/closed/);
  });

  it('send waits for drain when stdout is full', async () => {
    const callbacks: (() => void)[] = [];
    const stdout = new Writable({
      highWaterMark: 16,
      write: (_chunk, _encoding, callback) => callbacks.push(callback),
    });
    const transport = new StdioServerTransport({ stdin: new PassThrough(), stdout });
    let sent = false;
    const sending = transport.send({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { data: 'x'.repeat(64) },
    });
    void sending.then(() => {
      sent = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toBe(false);
    for (const callback of callbacks.splice(0)) callback();
    await within('send resolves after drain', sending);
  });

  it('a failing stdout (the client went away) closes the transport and ends the iteration', async () => {
    const stdout = new Writable({
      write: (_chunk, _encoding, callback) => callback(new Error('write EPIPE')),
    });
    const stdin = new PassThrough();
    const transport = new StdioServerTransport({ stdin, stdout });
    const messages = transport.messages[Symbol.asyncIterator]();
    await expect(transport.send(request(1))).rejects.toThrow(
      'stdio transport is closed: stdout failed (write EPIPE)',
    );
    expect((await within('iteration ends', messages.next())).done).toBe(true);
    await expect(transport.send(request(2))).rejects.toThrow(/closed/);
  });

  it('rejects an unserializable message with TypeError and an aborted signal with its reason', async () => {
    const { transport } = serve();
    await expect(transport.send({ jsonrpc: '2.0', method: 'x', params: { n: 1n } } as never)).rejects.toThrow(
      TypeError,
    );
    const reason = new Error('aborted by caller');
    await expect(transport.send(request(1), { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });
});

describe('StdioServerTransport in a real server process', () => {
  let fixtures: FixtureBundle;
  const processes = new Processes();
  beforeAll(async () => {
    fixtures = await bundleFixtures(['test-fixtures/echo-server.mjs', 'test-fixtures/flood-server.mjs']);
  });
  afterAll(() => fixtures?.remove());
  afterEach(() => processes.stopAll());

  it('answers, writes only protocol lines to stdout, and exits promptly with code 0 on stdin EOF', async () => {
    const child = processes.child(spawn(process.execPath, [fixtures.path('echo-server')], { stdio: 'pipe' }));
    const stderr: string[] = [];
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
    const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY })[
      Symbol.asyncIterator
    ]();
    const nextLine = async () =>
      (await within('a line from the server', lines.next())).value as string | undefined;
    child.stdin.write('not json\n');
    child.stdin.write(line({ jsonrpc: '2.0', id: 1, method: 'ping', params: { n: 1 } }));
    const answers = [await nextLine(), await nextLine()];
    expect(answers.every((text) => text !== undefined && parseMessage(text).ok)).toBe(true);
    expect(answers.map((text) => JSON.parse(text as string))).toEqual([
      { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } },
      { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', echo: { n: 1 } } },
    ]);
    const exited = once(child, 'exit');
    child.stdin.end();
    const [code, signal] = (await within('exit after EOF', exited)) as [number | null, string | null];
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(await nextLine()).toBeUndefined(); // stdout ended, nothing else was written
    expect(stderr.join('')).toContain('echo-server: stdin ended');
    expect(stderr.join('')).toContain('echo-server: child_process loaded: false');
  });

  /**
   * Writes requests to a server whose stdout nobody reads until the pipe stops taking them (no `'drain'` for
   * 500 ms), for at most 5 s or 48 MiB. Resolves to the bytes written and the server's resident memory then.
   */
  async function flood(mode: 'server' | 'sequential', maxBuffered: number) {
    const env = { ...process.env, MODE: mode, MAX_BUFFERED: String(maxBuffered) };
    const child = processes.child(spawn(process.execPath, [fixtures.path('flood-server')], { env }));
    // stdout is never read: the pipe fills, and so would this process's memory without back-pressure.
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const text = 'x'.repeat(4096);
    let written = 0;
    let id = 0;
    const deadline = Date.now() + 5000;
    while (written < 48 * 1024 * 1024 && Date.now() < deadline) {
      let chunk = '';
      for (let i = 0; i < 16; i++) {
        const params = { _meta: meta, name: 'echo', arguments: { text } };
        chunk += line({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params } as JSONRPCMessage);
      }
      written += chunk.length;
      if (child.stdin.write(chunk)) continue;
      const drained = await Promise.race([
        once(child.stdin, 'drain').then(() => true),
        new Promise<false>((resolve) => setTimeout(resolve, 500, false)),
      ]);
      if (!drained) break;
    }
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
    const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
    return { written, rssMiB: rssKiB / 1024 };
  }

  it.each(['server', 'sequential'] as const)(
    'stops reading stdin while replies are not drained: %s',
    async (mode) => {
      const { written, rssMiB } = await flood(mode, 1024 * 1024);
      // 1 MiB of bound, plus what the pipes and stream buffers hold, plus one read chunk of requests.
      expect(written).toBeLessThan(6 * 1024 * 1024);
      if (!Number.isNaN(rssMiB)) expect(rssMiB).toBeLessThan(200);
    },
  );

  it('rejects a maxBufferedBytes that is not a positive integer', () => {
    expect(() => new StdioServerTransport({ maxBufferedBytes: 0 })).toThrow(RangeError);
    expect(() => new StdioServerTransport({ maxBufferedBytes: 1.5 })).toThrow(RangeError);
  });
});
