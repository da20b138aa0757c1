import { describe, expect, it } from 'vitest';
import { readBody, readText, sseData, sseEvent } from './body.js';

const encoder = new TextEncoder();

/** A stream that delivers `text` in the given chunk boundaries (by UTF-8 bytes). */
function chunked(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = encoder.encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for await (const data of sseData(stream)) out.push(data);
  return out;
}

describe('readBody', () => {
  const request = (body: BodyInit | null, headers: Record<string, string> = {}) =>
    new Request('http://x/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

  it('reads a body up to and including the limit', async () => {
    const result = await readBody(request('abcd'), 4);
    expect(result.ok && new TextDecoder().decode(result.bytes)).toBe('abcd');
    expect(await readBody(request('abcde'), 4)).toEqual({ ok: false });
    expect(await readBody(request(null), 4)).toMatchObject({ ok: true });
  });

  it('refuses a declared Content-Length over the limit before reading', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1));
      },
    });
    expect(await readBody(request(stream, { 'content-length': '999' }), 10)).toEqual({ ok: false });
    expect(pulled).toBeLessThanOrEqual(1); // at most the stream's own initial pull
  });

  it('joins many chunks', async () => {
    const result = await readBody(request(chunked('x'.repeat(1000), 7)), 1000);
    expect(result.ok && result.bytes.length).toBe(1000);
  });
});

describe('sseEvent / sseData', () => {
  it('round-trips messages through any chunking, multi-byte characters included', async () => {
    const messages = [{ a: 'é 日本 🪃' }, { b: 'x'.repeat(5000) }, { c: 'line\nbreak' }];
    const text = new TextDecoder().decode(new Uint8Array(messages.flatMap((m) => [...sseEvent(m)])));
    for (const size of [1, 2, 3, 7, 64, 100_000]) {
      const got = await collect(chunked(text, size));
      expect(got.map((d) => JSON.parse(d))).toEqual(messages);
    }
  });

  it('follows the event-stream rules: CRLF/CR/LF, BOM, comments, multi-line data, other fields', async () => {
    const text =
      '\ufeff: keep-alive\r\nevent: message\r\ndata: {"a":\r\ndata: 1}\r\n\r\nid: 3\rdata:2\r\r: x\n\nretry: 5\n\ndata\n\n';
    for (const size of [1, 3, 1000]) {
      expect(await collect(chunked(text, size))).toEqual(['{"a":\n1}', '2', '']);
    }
  });

  it('drops an unterminated last event', async () => {
    expect(await collect(chunked('data: 1\n\ndata: 2\n', 4))).toEqual(['1']);
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    const never = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(encoder.encode('data: 1\n\n'));
      },
    });
    const seen: string[] = [];
    for await (const data of sseData(never, controller.signal)) {
      seen.push(data);
      controller.abort();
    }
    expect(seen).toEqual(['1']);
  });
});

describe('readText', () => {
  it('reads text and stops when the signal aborts', async () => {
    expect(await readText(chunked('héllo', 1), new AbortController().signal)).toBe('héllo');
    const controller = new AbortController();
    const stalled = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(encoder.encode('part')) });
    const reading = readText(stalled, controller.signal);
    controller.abort();
    expect(await reading).toBe('part');
  });

  it('stops when a registered stop is called, and unregisters it once done', async () => {
    const stops = new Set<() => void>();
    const stopWhen = (stop: () => void) => {
      stops.add(stop);
      return () => stops.delete(stop);
    };
    expect(await readText(chunked('done', 2), stopWhen)).toBe('done');
    expect(stops.size).toBe(0);
    const stalled = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(encoder.encode('half')) });
    const reading = readText(stalled, stopWhen);
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const stop of stops) stop();
    expect(await reading).toBe('half');
    expect(await readText(chunked('x', 1), AbortSignal.abort())).toBe('');
  });
});
