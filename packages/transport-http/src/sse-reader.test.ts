import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sseEvent, TooLargeError } from './body.js';
import { type SseReadOptions, sseData, sseEvents } from './sse-reader.js';

const encoder = new TextEncoder();

/** A stream that delivers `text` in the given chunk boundaries (by UTF-8 bytes). */
function chunked(text: string | Uint8Array, size: number): ReadableStream<Uint8Array> {
  const bytes = typeof text === 'string' ? encoder.encode(text) : text;
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

async function collect(stream: ReadableStream<Uint8Array>, options?: SseReadOptions): Promise<string[]> {
  const out: string[] = [];
  for await (const data of sseData(stream, options)) out.push(data);
  return out;
}

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
    for (const size of [1, 2, 3, 1000]) {
      expect(await collect(chunked(text, size))).toEqual(['{"a":\n1}', '2', '']);
    }
  });

  it('reads a CR and LF split across chunks as one line end, and a CR alone as one', async () => {
    // Chunks: "data: 1\r" | "\ndata: 2\r" | "\r" — the first CR LF is one line end, the last CR CR a blank line.
    const parts = ['data: 1\r', '\ndata: 2\r', '\r'];
    let index = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const part = parts[index++];
        if (part === undefined) controller.close();
        else controller.enqueue(encoder.encode(part));
      },
    });
    expect(await collect(stream)).toEqual(['1\n2']);
  });

  it('strips a BOM only at the start of the stream', async () => {
    expect(await collect(chunked('\ufeffdata: a\n\n\ufeffdata: b\n\n', 1))).toEqual(['a']);
    expect(await collect(chunked('data: \ufeffa\n\n', 2))).toEqual(['\ufeffa']);
  });

  it('keeps id and retry across events, ignores an id with NUL and a retry that is not digits', async () => {
    const events = [];
    const text = 'id: 1\nretry: 20\n\ndata: a\n\nid: x\0y\nretry: 5s\ndata: b\n\nid\n\n';
    for await (const event of sseEvents(chunked(text, 3))) events.push(event);
    expect(events).toEqual([
      { data: undefined, lastEventId: '1', retry: 20 },
      { data: 'a', lastEventId: '1', retry: 20 },
      { data: 'b', lastEventId: '1', retry: 20 },
      { data: undefined, lastEventId: '', retry: 20 },
    ]);
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
    for await (const data of sseData(never, { stopWhen: controller.signal })) {
      seen.push(data);
      controller.abort();
    }
    expect(seen).toEqual(['1']);
  });
});

/**
 * The event-stream rules read straight off the spec, over the whole text at once: the readable reference the
 * byte-level parser must agree with, whatever the chunking.
 */
function referenceEvents(bytes: Uint8Array) {
  let text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  if (text.startsWith('\ufeff')) text = text.slice(1);
  const lines = text.split(/\r\n|\r|\n/);
  lines.pop(); // the text after the last line end is no line
  const events: { data: string | undefined; lastEventId: string; retry: number | undefined }[] = [];
  let data: string[] = [];
  let lastEventId = '';
  let retry: number | undefined;
  let changed = false;
  for (const line of lines) {
    if (line === '') {
      if (data.length > 0 || changed) {
        events.push({ data: data.length > 0 ? data.join('\n') : undefined, lastEventId, retry });
      }
      data = [];
      changed = false;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) {
      lastEventId = value;
      changed = true;
    } else if (field === 'retry' && /^\d+$/.test(value)) {
      retry = Number(value);
      changed = true;
    }
  }
  return events;
}

describe('sseEvents: the same events as the spec reading, whatever the chunking', () => {
  const piece = fc.constantFrom(
    'data: a',
    'data:é',
    'data',
    'data: 🪃',
    ': c',
    'id: 1',
    'id: x',
    'retry: 3',
    'retry: x',
    'event: message',
    '\ufeff',
    '',
    '\n',
    '\r',
    '\r\n',
    '\n\n',
  );

  it('holds for random streams cut at random byte offsets (multi-byte characters split too)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 10 }),
        async (pieces, sizes) => {
          const bytes = encoder.encode(pieces.join(''));
          let offset = 0;
          let turn = 0;
          const stream = new ReadableStream<Uint8Array>({
            pull(controller) {
              if (offset >= bytes.length) {
                controller.close();
                return;
              }
              const size = sizes[turn++ % sizes.length] as number;
              controller.enqueue(bytes.slice(offset, offset + size));
              offset += size;
            },
          });
          const got = [];
          for await (const event of sseEvents(stream)) got.push(event);
          expect(got).toEqual(referenceEvents(bytes));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('sseEvents: maxEventBytes', () => {
  it('takes an event whose data lines, as sent, are exactly the limit; one byte more rejects', async () => {
    const line = `data: ${'x'.repeat(94)}`; // 100 bytes
    expect(await collect(chunked(`${line}\n\n`, 7), { maxEventBytes: 100 })).toEqual(['x'.repeat(94)]);
    const over = collect(chunked(`${line}y\n\n`, 7), { maxEventBytes: 100 });
    await expect(over).rejects.toThrow(TooLargeError);
    await expect(over).rejects.toMatchObject({ option: 'maxEventBytes', limit: 100 });
  });

  it('adds up the data lines of one event, and starts over with the next', async () => {
    const event = 'data: 12345\ndata: 12345\n\n'; // 22 bytes of data lines
    const three = event.repeat(3);
    expect(await collect(chunked(three, 5), { maxEventBytes: 22 })).toEqual([
      '12345\n12345',
      '12345\n12345',
      '12345\n12345',
    ]);
    await expect(collect(chunked(event, 5), { maxEventBytes: 21 })).rejects.toThrow(TooLargeError);
  });

  it('does not count comments and other fields across lines (keep-alives on a long stream)', async () => {
    const text = `${': ping\n'.repeat(1000)}id: 7\nevent: message\ndata: ok\n\n`;
    expect(await collect(chunked(text, 64), { maxEventBytes: 16 })).toEqual(['ok']);
  });

  it('hands on the events before the one that is too large, then rejects and cancels the stream', async () => {
    let cancelled = false;
    const text = `data: first\n\ndata: ${'x'.repeat(200)}\n\ndata: never\n\n`;
    const bytes = encoder.encode(text);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes); // one chunk: the first event and the large one arrive together
      },
      cancel() {
        cancelled = true;
      },
    });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const data of sseData(stream, { maxEventBytes: 100 })) seen.push(data);
    })();
    await expect(reading).rejects.toMatchObject({ name: 'TooLargeError', option: 'maxEventBytes' });
    expect(seen).toEqual(['first']);
    expect(cancelled).toBe(true);
  });

  it('cuts off a line that never ends once it passes the limit, having read little more than the limit', async () => {
    let sent = 0;
    const slice = encoder.encode('x'.repeat(1024));
    const endless = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('data: '));
      },
      pull(controller) {
        sent += slice.length;
        controller.enqueue(slice);
      },
    });
    await expect(collect(endless, { maxEventBytes: 64 * 1024 })).rejects.toThrow(TooLargeError);
    expect(sent).toBeLessThanOrEqual(64 * 1024 + 3 * 1024);
  });

  it('reads an 8 MB event in 64 KiB chunks (a large honest tool result)', async () => {
    const text = 'x'.repeat(8_000_000);
    const got = await collect(chunked(`event: message\ndata: ${text}\n\n`, 65_536), {
      maxEventBytes: 8_000_006,
    });
    expect(got.length).toBe(1);
    expect(got[0]?.length).toBe(8_000_000);
  });
});
