import { ErrorCode } from '@boomerang/protocol';
import { encodeBase64Url as toBase64Url } from '@boomerang/seal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unwrapCursor, wrapCursor } from './cursor.js';
import { Server } from './server.js';
import { errorOf, example, haveExamples, recordingLogger, request, resultOf } from './test-support/wire.js';

describe('wrapCursor / unwrapCursor', () => {
  it('round-trips any handler cursor, including the empty string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (inner) => {
        const cursor = wrapCursor('tools/list', inner);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(unwrapCursor('tools/list', cursor)).toBe(inner);
      }),
    );
  });

  it('binds a cursor to its list method', () => {
    expect(unwrapCursor('prompts/list', wrapCursor('tools/list', 'page-2'))).toBe(undefined);
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'page 2!'],
    ['padded', `${wrapCursor('tools/list', 'x')}=`],
    ['base64url of something else', toBase64Url(new TextEncoder().encode('{"page":2}'))],
    ['another version', toBase64Url(new TextEncoder().encode('[2,"tools/list","x"]'))],
    ['a non-string inner cursor', toBase64Url(new TextEncoder().encode('[1,"tools/list",2]'))],
    ['invalid UTF-8', toBase64Url(new Uint8Array([0xff, 0xfe]))],
    ['too long', 'A'.repeat(20_000)],
  ])('rejects a cursor that is %s', (_name, cursor) => {
    expect(unwrapCursor('tools/list', cursor)).toBe(undefined);
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        unwrapCursor('tools/list', text);
      }),
    );
  });
});

describe('pagination over the wire', () => {
  const pages: Record<string, { tools: { name: string; inputSchema: { type: 'object' } }[]; next?: string }> =
    {
      '': { tools: [{ name: 'a', inputSchema: { type: 'object' } }], next: 'p2' },
      p2: { tools: [{ name: 'b', inputSchema: { type: 'object' } }] },
    };
  const seen: (string | undefined)[] = [];
  const server = new Server(
    { name: 's', version: '1' },
    {
      logger: recordingLogger(),
      onListTools: ({ cursor }) => {
        seen.push(cursor);
        const page = pages[cursor ?? ''];
        if (page === undefined) throw new Error('unexpected cursor');
        return page.next === undefined ? { tools: page.tools } : { tools: page.tools, nextCursor: page.next };
      },
      onListPrompts: () => ({ prompts: [], nextCursor: 42 as never }),
    },
  );

  it('wraps nextCursor on the way out and hands the handler its own cursor on the way in', async () => {
    const first = resultOf(await server.handle(request('tools/list')));
    expect(first.nextCursor).toBe(wrapCursor('tools/list', 'p2'));
    const second = resultOf(await server.handle(request('tools/list', { cursor: first.nextCursor })));
    expect(second).not.toHaveProperty('nextCursor');
    expect(second.tools).toEqual(pages.p2?.tools);
    expect(seen).toEqual([undefined, 'p2']);
  });

  it('answers a cursor the server did not mint with -32602 before the handler runs', async () => {
    seen.length = 0;
    for (const cursor of ['p2', '', wrapCursor('prompts/list', 'p2')]) {
      expect(errorOf(await server.handle(request('tools/list', { cursor })))).toEqual({
        code: ErrorCode.InvalidParams,
        message: 'Invalid cursor',
      });
    }
    expect(errorOf(await server.handle(request('tools/list', { cursor: 7 }))).code).toBe(
      ErrorCode.InvalidParams,
    );
    expect(seen).toEqual([]);
  });

  it.skipIf(!haveExamples)(
    'rejects the official example cursor, which this server did not mint',
    async () => {
      const params = example('PaginatedRequestParams/list-with-cursor.json');
      expect(
        errorOf(await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list', params })).message,
      ).toBe('Invalid cursor');
    },
  );

  it('answers -32603 when a handler returns a non-string nextCursor', async () => {
    expect(errorOf(await server.handle(request('prompts/list'))).code).toBe(ErrorCode.InternalError);
  });
});
