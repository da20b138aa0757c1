import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCErrorResponse, JSONRPCMessage } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { LineSplitter, LineWriter, readMessages, serializeMessage } from './framing.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Feeds `chunks` to a splitter and returns the lines (as text) and how many lines were too large. */
function split(chunks: (string | Uint8Array)[], maxBytes = 1024): { lines: string[]; oversize: number } {
  const lines: string[] = [];
  let oversize = 0;
  const splitter = new LineSplitter(
    maxBytes,
    (line) => lines.push(decoder.decode(line)),
    () => oversize++,
  );
  for (const chunk of chunks) splitter.push(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
  splitter.flush();
  return { lines, oversize };
}

describe('serializeMessage', () => {
  it('writes one JSON line; newlines inside strings stay escaped', () => {
    const line = serializeMessage({ jsonrpc: '2.0', method: 'x', params: { text: 'a\nb\r\nc\u2028' } });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/[\n\r]/);
    expect(JSON.parse(line)).toEqual({ jsonrpc: '2.0', method: 'x', params: { text: 'a\nb\r\nc\u2028' } });
  });

  it('throws TypeError for values JSON cannot carry', () => {
    const cyclic: Record<string, unknown> = { jsonrpc: '2.0', method: 'x' };
    cyclic.params = cyclic;
    expect(() => serializeMessage(cyclic as JSONRPCMessage)).toThrow(TypeError);
    expect(() => serializeMessage({ jsonrpc: '2.0', method: 'x', params: { n: 1n } } as never)).toThrow(
      TypeError,
    );
    expect(() => serializeMessage('text' as never)).toThrow(TypeError);
    expect(() => serializeMessage(undefined as never)).toThrow(TypeError);
  });
});

describe('LineSplitter', () => {
  it('joins a line split across chunks, even inside a multi-byte character', () => {
    const bytes = encoder.encode('{"t":"日本 🪃"}\n');
    const chunks = Array.from(bytes, (byte) => Uint8Array.of(byte)); // one byte per chunk
    expect(split(chunks).lines).toEqual(['{"t":"日本 🪃"}']);
  });

  it('splits many lines in one chunk, and a chunk that ends exactly on a line end', () => {
    expect(split(['a\nb\nc\n', 'd\n']).lines).toEqual(['a', 'b', 'c', 'd']);
  });

  it('accepts CRLF line ends, drops blank lines, keeps a last line without a line end', () => {
    expect(split(['a\r\n\r\n  \t\n\nb\r', '\nc']).lines).toEqual(['a', 'b', 'c']);
  });

  it('handles a several-MB line in many small chunks in linear time', () => {
    const line = 'x'.repeat(8 * 1024 * 1024);
    const bytes = encoder.encode(`${line}\n`);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 16 * 1024) chunks.push(bytes.subarray(i, i + 16 * 1024));
    const { lines } = split(chunks, 64 * 1024 * 1024);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.length).toBe(line.length);
  });

  it('discards a line over the limit as it streams in, reports it once, and keeps going', () => {
    const { lines, oversize } = split(
      ['ok1\n', 'y'.repeat(10), 'y'.repeat(10), 'y\nok2\n', 'z'.repeat(30)],
      16,
    );
    expect(lines).toEqual(['ok1', 'ok2']);
    expect(oversize).toBe(2);
  });
});

describe('readMessages', () => {
  it('parses each line, reports bad ones with the error to answer, and reports the end once', async () => {
    const input = new PassThrough();
    const messages: JSONRPCMessage[] = [];
    const invalid: [number, string | undefined][] = [];
    const ended = new Promise<Error | undefined>((resolve) => {
      readMessages(input, {
        maxMessageBytes: 1024,
        onMessage: (message) => messages.push(message),
        onInvalid: (error: JSONRPCErrorResponse, line) =>
          invalid.push([error.error.code, line && decoder.decode(line)]),
        onEnd: resolve,
      });
    });
    input.write('{"jsonrpc":"2.0","method":"a"}\nnope\n[{"jsonrpc":"2.0","method":"b"}]\n');
    input.end('{"jsonrpc":"2.0","id":1,"method":"c"}');
    expect(await ended).toBeUndefined();
    expect(messages).toEqual([
      { jsonrpc: '2.0', method: 'a' },
      { jsonrpc: '2.0', id: 1, method: 'c' },
    ]);
    expect(invalid).toEqual([
      [-32700, 'nope'],
      [-32600, '[{"jsonrpc":"2.0","method":"b"}]'],
    ]);
  });

  it('reports a stream error as the end, without an unhandled error', async () => {
    const input = new PassThrough();
    const ended = new Promise<Error | undefined>((resolve) => {
      readMessages(input, { maxMessageBytes: 1024, onMessage() {}, onInvalid() {}, onEnd: resolve });
    });
    input.destroy(new Error('boom'));
    expect((await ended)?.message).toBe('boom');
  });

  it('detach stops reading and pauses the stream', () => {
    const input = new PassThrough();
    const messages: unknown[] = [];
    const detach = readMessages(input, {
      maxMessageBytes: 1024,
      onMessage: (message) => messages.push(message),
      onInvalid() {},
      onEnd() {},
    });
    detach();
    input.write('{"jsonrpc":"2.0","method":"a"}\n');
    expect(messages).toEqual([]);
    expect(input.isPaused()).toBe(true);
  });
});

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A writable whose sink completes each write only when told to: back-pressure on demand. */
function slowSink(highWaterMark: number) {
  const pending: (() => void)[] = [];
  const received: string[] = [];
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, callback) {
      received.push(chunk.toString('utf8'));
      pending.push(() => callback());
    },
  });
  return {
    stream,
    received,
    release: () => {
      for (const done of pending.splice(0)) done();
    },
  };
}

describe('LineWriter', () => {
  it('sends the lines of one tick in one writev, in order, and resolves each once they left', async () => {
    const writes: string[][] = [];
    const output = new Writable({
      write(chunk, _encoding, callback) {
        writes.push([String(chunk)]);
        callback();
      },
      writev(chunks, callback) {
        writes.push(chunks.map(({ chunk }) => String(chunk)));
        callback();
      },
    });
    const writer = new LineWriter(output, () => {});
    await Promise.all([writer.write('a\n'), writer.write('b\n'), writer.write('c\n')]);
    await writer.write('d\n');
    expect(writes).toEqual([['a\n', 'b\n', 'c\n'], ['d\n']]);
    writes.length = 0;
    const lines = Array.from({ length: 10 }, (_, i) => `${i}\n`);
    await Promise.all(lines.map((line) => writer.write(line)));
    expect(writes.map((batch) => batch.length)).toEqual([8, 2]); // at most 8 lines per write
    expect(writes.flat()).toEqual(lines);
  });

  it('keeps call order, and a write that filled the buffer resolves only after drain', async () => {
    const sink = slowSink(8);
    const writer = new LineWriter(sink.stream, () => {});
    let firstDone = false;
    const first = writer.write('0123456789\n').then(() => {
      firstDone = true;
    });
    const second = writer.write('second\n');
    await tick();
    expect(firstDone).toBe(false); // buffer over its high-water mark: waiting for 'drain'
    expect(sink.received).toEqual(['0123456789\n']);
    sink.release();
    await first;
    await tick();
    sink.release();
    await second;
    expect(sink.received).toEqual(['0123456789\n', 'second\n']);
  });

  it('fails the waiting and later writes once the stream errors, and reports it once', async () => {
    const sink = slowSink(1);
    const failures: Error[] = [];
    const writer = new LineWriter(sink.stream, (error) => failures.push(error));
    const waiting = writer.write('filled\n');
    await tick(); // written, waiting for 'drain'
    sink.stream.destroy(new Error('EPIPE'));
    await expect(waiting).rejects.toThrow('EPIPE');
    await expect(writer.write('later\n')).rejects.toThrow('EPIPE');
    expect(failures.map((error) => error.message)).toEqual(['EPIPE']);
  });

  it('skips a line whose signal aborted while it waited', async () => {
    const sink = slowSink(1);
    const writer = new LineWriter(sink.stream, () => {});
    const first = writer.write('first\n');
    const controller = new AbortController();
    const second = writer.write('second\n', controller.signal);
    controller.abort(new Error('stop'));
    await tick();
    sink.release();
    await first;
    await expect(second).rejects.toThrow('stop');
    expect(sink.received).toEqual(['first\n']);
  });

  it('end() writes what is queued, then ends the stream; later writes reject', async () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
    const writer = new LineWriter(out, () => {});
    void writer.write('a\n');
    void writer.write('b\n');
    await writer.end();
    expect(out.writableEnded).toBe(true);
    expect(chunks.join('')).toBe('a\nb\n');
    await expect(writer.write('c\n')).rejects.toThrow(/ended/);
  });
});
