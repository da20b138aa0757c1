import { describe, expect, it } from 'vitest';
import { readBody, readText, TooLargeError } from './body.js';

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

  it('reads a body of declared length whole, and refuses it when more than the limit came all the same', async () => {
    const declared = await readBody(request(chunked('abcdef', 2), { 'content-length': '6' }), 6);
    expect(declared.ok && new TextDecoder().decode(declared.bytes)).toBe('abcdef');
    // A Request built in process may declare less than it carries: the limit still holds.
    expect(await readBody(request(chunked('x'.repeat(20), 4), { 'content-length': '4' }), 10)).toEqual({
      ok: false,
    });
  });

  it('joins many chunks', async () => {
    const result = await readBody(request(chunked('x'.repeat(1000), 7)), 1000);
    expect(result.ok && result.bytes.length).toBe(1000);
  });
});

describe('readText', () => {
  it('reads text and stops when the signal aborts', async () => {
    expect(await readText(chunked('héllo', 1), { stopWhen: new AbortController().signal })).toBe('héllo');
    const controller = new AbortController();
    const stalled = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(encoder.encode('part')) });
    const reading = readText(stalled, { stopWhen: controller.signal });
    controller.abort();
    expect(await reading).toBe('part');
  });

  it('stops when a registered stop is called, and unregisters it once done', async () => {
    const stops = new Set<() => void>();
    const stopWhen = (stop: () => void) => {
      stops.add(stop);
      return () => stops.delete(stop);
    };
    expect(await readText(chunked('done', 2), { stopWhen })).toBe('done');
    expect(stops.size).toBe(0);
    const stalled = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(encoder.encode('half')) });
    const reading = readText(stalled, { stopWhen });
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const stop of stops) stop();
    expect(await reading).toBe('half');
    expect(await readText(chunked('x', 1), { stopWhen: AbortSignal.abort() })).toBe('');
  });

  it('reads up to maxBytes, and refuses a larger Content-Length before reading anything', async () => {
    const stopWhen = new AbortController().signal;
    expect(await readText(chunked('é'.repeat(50), 7), { stopWhen, maxBytes: 100 })).toBe('é'.repeat(50));
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(10));
      },
    });
    const refused = readText(body, { stopWhen, maxBytes: 100, contentLength: '101' });
    await expect(refused).rejects.toThrow(TooLargeError);
    await expect(refused).rejects.toMatchObject({ option: 'maxResponseBytes', limit: 100 });
    expect(pulled).toBeLessThanOrEqual(1); // at most the stream's own first pull
  });

  it('stops a body that grows past maxBytes at the limit and cancels it', async () => {
    let sent = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 64;
        controller.enqueue(new Uint8Array(64).fill(0x78));
      },
      cancel() {
        cancelled = true;
      },
    });
    const reading = readText(endless, { stopWhen: new AbortController().signal, maxBytes: 1000 });
    await expect(reading).rejects.toMatchObject({ name: 'TooLargeError', option: 'maxResponseBytes' });
    expect(cancelled).toBe(true);
    expect(sent).toBeLessThanOrEqual(1000 + 3 * 64); // the limit, and what the stream queued ahead
  });
});
