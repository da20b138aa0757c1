import { fileURLToPath } from 'node:url';
import { Client } from '@boomerang/client';
import type { JSONRPCMessage, StandardSchemaV1 } from '@boomerang/protocol';
import { within } from '@boomerang/test-kit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Processes } from '../test-fixtures/support.js';
import { StdioClientTransport, type StdioClientTransportOptions } from './index.js';

const FAKE_SERVER = fileURLToPath(new URL('../test-fixtures/fake-server.mjs', import.meta.url));
const processes = new Processes();
afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await processes.stopAll();
});

/** A client transport for the plain-Node fake server, run with `flags`. */
function fake(
  flags: string[] = [],
  options: Partial<StdioClientTransportOptions> = {},
): StdioClientTransport {
  return processes.transport(
    new StdioClientTransport({
      command: process.execPath,
      args: [FAKE_SERVER, ...flags],
      stderr: 'ignore',
      ...options,
    }),
  );
}

const request = (id: number, method = 'ping', params: Record<string, unknown> = {}): JSONRPCMessage =>
  ({ jsonrpc: '2.0', id, method, params }) as JSONRPCMessage;

const next = (iterator: AsyncIterator<JSONRPCMessage>, label = 'a message from the server') =>
  within(label, iterator.next());

describe('StdioClientTransport: running a server', () => {
  it('spawns when iteration starts, exchanges messages, and closes with exit code 0', async () => {
    const transport = fake();
    expect(transport.pid).toBeUndefined();
    const messages = transport.messages[Symbol.asyncIterator]();
    expect(transport.pid).toEqual(expect.any(Number));
    await transport.send(request(1, 'ping', { a: 1 }));
    expect((await next(messages)).value).toEqual({ jsonrpc: '2.0', id: 1, result: { echo: { a: 1 } } });
    expect(transport.exit).toBeUndefined();
    await within('close', transport.close());
    expect(transport.exit).toEqual({ code: 0, signal: null });
    expect((await next(messages)).done).toBe(true);
    await expect(transport.send(request(2))).rejects.toThrow(/^stdio transport is closed$/);
  });

  it('spawns on the first send; start() is explicit, idempotent and resolves once running', async () => {
    const lazy = fake();
    await lazy.send(request(1));
    expect(lazy.pid).toEqual(expect.any(Number));
    const eager = fake();
    const started = eager.start();
    expect(eager.start()).toBe(started);
    await started;
    expect(eager.pid).toEqual(expect.any(Number));
  });

  it('reads a response written in pieces that split a character, with a CRLF line end', async () => {
    const transport = fake();
    const messages = transport.messages[Symbol.asyncIterator]();
    await transport.send(request(1, 'split'));
    expect((await next(messages)).value).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { echo: {}, text: '日本 🪃' },
    });
  });

  it('skips lines that are not JSON-RPC messages with a warning, and keeps reading', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const transport = fake();
    const messages = transport.messages[Symbol.asyncIterator]();
    await transport.send(request(1, 'noise'));
    expect((await next(messages)).value).toEqual({ jsonrpc: '2.0', id: 1, result: { echo: {} } });
    const warnings = warn.mock.calls.map(([text, options]) => [String(text), options]);
    expect(warnings).toHaveLength(4); // blank lines are not warned about
    expect(warnings[0]?.[0]).toMatch(/not a JSON-RPC message \(Parse error\): hello, I am not JSON$/);
    expect(warnings[1]?.[0]).toMatch(/batches are not supported/);
    for (const [, options] of warnings)
      expect(options).toMatchObject({ code: 'BOOMERANG_STDIO_INVALID_LINE' });
  });

  it("exposes the server's stderr with stderr: 'pipe'", async () => {
    const transport = fake([], { stderr: 'pipe' });
    await transport.start();
    const stderr = transport.stderr;
    if (stderr === null) throw new Error('expected a stderr stream');
    const chunks: string[] = [];
    stderr.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
    const messages = transport.messages[Symbol.asyncIterator]();
    await transport.send(request(1, 'stderr', { text: 'a log line' }));
    await next(messages);
    await transport.close();
    expect(chunks.join('')).toContain('a log line');
    expect(fake().stderr).toBeNull();
  });

  it('gives the server only the default environment, overlaid with env (undefined removes)', async () => {
    vi.stubEnv('BOOMERANG_TEST_SECRET', 'do-not-leak');
    const envOf = async (transport: StdioClientTransport) => {
      const messages = transport.messages[Symbol.asyncIterator]();
      const first = (await next(messages)).value as { params: { env: Record<string, string> } };
      return first.params.env;
    };
    const plain = await envOf(fake(['--env']));
    expect(plain).not.toHaveProperty('BOOMERANG_TEST_SECRET');
    if (process.env.PATH !== undefined) expect(plain.PATH).toBe(process.env.PATH);
    const custom = await envOf(fake(['--env'], { env: { EXTRA: 'yes', PATH: undefined } }));
    expect(custom.EXTRA).toBe('yes');
    expect(custom).not.toHaveProperty('PATH');
  });
});

describe('StdioClientTransport: a server that dies', () => {
  it('exit mid-request: messages end and send rejects naming the exit code', async () => {
    const transport = fake();
    const messages = transport.messages[Symbol.asyncIterator]();
    await transport.send(request(1));
    await next(messages);
    await transport.send(request(2, 'exit', { code: 3 })); // no answer comes: the request is in flight
    expect((await next(messages, 'the iteration ends')).done).toBe(true);
    expect(transport.exit).toEqual({ code: 3, signal: null });
    await expect(transport.send(request(3))).rejects.toThrow(
      `stdio transport is closed: the server process (pid ${transport.pid}) exited with code 3`,
    );
    await within('close after death', transport.close());
  });

  it('killed by a signal: send rejects naming the signal', async () => {
    const transport = fake();
    const messages = transport.messages[Symbol.asyncIterator]();
    await transport.send(request(1, 'kill', { signal: 'SIGKILL' }));
    expect((await next(messages, 'the iteration ends')).done).toBe(true);
    expect(transport.exit).toEqual({ code: null, signal: 'SIGKILL' });
    await expect(transport.send(request(2))).rejects.toThrow(/was killed by SIGKILL$/);
  });

  it('exits at start: a send that races the exit still names the exit code', async () => {
    const transport = fake(['--exit-at-start=2']);
    await transport.start();
    const sends = Array.from({ length: 20 }, (_, i) =>
      transport.send(request(i)).then(
        () => 'sent',
        (e: Error) => e.message,
      ),
    );
    const outcomes = await within('sends settle', Promise.all(sends));
    expect(
      outcomes.filter((outcome) => outcome !== 'sent').every((m) => m.endsWith('exited with code 2')),
    ).toBe(true);
    for await (const _message of transport.messages) throw new Error('expected no message');
    expect(transport.exit).toEqual({ code: 2, signal: null });
    await expect(transport.send(request(99))).rejects.toThrow(/exited with code 2$/);
  });

  it('closes its stdout: messages end and the transport shuts the process down', async () => {
    const transport = fake(['--ignore-eof'], { shutdownTimeouts: { stdinMs: 50 } });
    const messages = transport.messages[Symbol.asyncIterator]();
    await transport.send(request(1, 'closeStdout'));
    expect((await next(messages)).value).toMatchObject({ id: 1 });
    expect((await next(messages, 'the iteration ends')).done).toBe(true);
    expect(transport.exit).toEqual({ code: null, signal: 'SIGTERM' });
    await expect(transport.send(request(2))).rejects.toThrow(/closed/);
  });

  it('spawn failure (ENOENT) rejects start and send with the command named, and ends messages', async () => {
    const transport = processes.transport(new StdioClientTransport({ command: 'boomerang-no-such-command' }));
    const messages = transport.messages[Symbol.asyncIterator]();
    const error = await transport.start().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/^stdio transport could not start "boomerang-no-such-command": .*ENOENT/);
    expect(error?.cause).toMatchObject({ code: 'ENOENT' });
    await expect(transport.send(request(1))).rejects.toThrow(/could not start "boomerang-no-such-command"/);
    expect((await next(messages)).done).toBe(true);
    expect(transport.pid).toBeUndefined();
    expect(transport.exit).toBeUndefined();
    await within('close', transport.close());
  });

  it('spawn failure reaches a send that started the process', async () => {
    const transport = processes.transport(
      new StdioClientTransport({ command: process.execPath, cwd: '/no/such/dir' }),
    );
    await expect(transport.send(request(1))).rejects.toThrow(/could not start ".*" in \/no\/such\/dir/);
  });
});

describe('StdioClientTransport: close()', () => {
  it('a server that ignores stdin EOF gets SIGTERM', async () => {
    const transport = fake(['--ignore-eof'], { shutdownTimeouts: { stdinMs: 50 } });
    await transport.start();
    await within('close', transport.close());
    expect(transport.exit).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('a server that ignores SIGTERM gets SIGKILL, within the configured bounds', async () => {
    const transport = fake(['--ignore-sigterm'], {
      shutdownTimeouts: { stdinMs: 50, sigtermMs: 100, sigkillMs: 2000 },
    });
    const messages = transport.messages[Symbol.asyncIterator]();
    await transport.send(request(1)); // answered: the SIGTERM handler is installed
    await next(messages);
    await within('close', transport.close(), 3000);
    expect(transport.exit).toEqual({ code: null, signal: 'SIGKILL' });
    expect((await next(messages)).done).toBe(true);
  });

  it('is idempotent, also before the process was started (then nothing is spawned)', async () => {
    const transport = fake();
    const messages = transport.messages; // not iterated yet: nothing spawned
    await Promise.all([transport.close(), transport.close(), transport[Symbol.asyncDispose]()]);
    expect(transport.pid).toBeUndefined();
    await expect(transport.start()).rejects.toThrow(/^stdio transport is closed$/);
    await expect(transport.send(request(1))).rejects.toThrow(/^stdio transport is closed$/);
    for await (const _message of messages) throw new Error('expected no message');
  });

  it('leaving a for await early closes the transport and stops the server', async () => {
    const transport = fake();
    await transport.send(request(1));
    for await (const _message of transport.messages) break;
    expect(transport.exit).toEqual({ code: 0, signal: null });
  });

  it('checks its options', () => {
    const make = (options: unknown) => () => new StdioClientTransport(options as StdioClientTransportOptions);
    expect(make({})).toThrow(TypeError);
    expect(make({ command: '' })).toThrow(TypeError);
    expect(make({ command: 'node', args: [1] })).toThrow(TypeError);
    expect(make({ command: 'node', stderr: 'file' })).toThrow(TypeError);
    expect(make({ command: 'node', shutdownTimeouts: { stdinMs: -1 } })).toThrow(RangeError);
    expect(make({ command: 'node', shutdownTimeouts: { sigkillMs: Number.POSITIVE_INFINITY } })).toThrow(
      RangeError,
    );
    expect(make({ command: 'node', maxMessageBytes: 0 })).toThrow(RangeError);
  });
});

describe('Client over StdioClientTransport: a vendor method with two rounds', () => {
  const Answer: StandardSchemaV1<unknown, { answer: string }> = {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: (value) => ({ value: value as { answer: string } }),
    },
  };

  it('request() runs the loop; start() and resume() step through it', async () => {
    const client = new Client(
      { name: 'host', version: '1.0.0' },
      {
        protocol: '2026-07-28',
        elicitation: (params) => ({ action: 'accept', content: { q: `${params.message}!` } }),
      },
    );
    await client.connect(fake());
    expect(
      await within('request', client.request('acme/ask', { q: 'why' }, { result: Answer })),
    ).toMatchObject({
      answer: 'why!',
    });
    const step = await within('start', client.start('acme/ask', { q: 'how' }, { result: Answer }));
    expect(step.continuation).toMatchObject({ method: 'acme/ask', requestState: 'asked', round: 1 });
    const answer = { q: { action: 'accept' as const, content: { q: 'by hand' } } };
    const done = await within('resume', client.resume(step.continuation!, answer, { result: Answer }));
    expect(done.result).toMatchObject({ answer: 'by hand' });
    await client.close();
  });
});
