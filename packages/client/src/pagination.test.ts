// Every page of the list methods as one iteration, and its bounds.
import { McpError } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { Client } from './client.js';
import { isClientError } from './errors.js';
import type { ListAllOptions } from './options.js';
import type { Paginated } from './pagination.js';
import { cacheable, harness, INFO, type Reply } from './test-support/fake-server.js';

/** A server whose list has `pages` pages of two items each, by cursor `p<n>`. */
function pagedServer(member: string, pages: number, item: (n: number) => object): Reply {
  return (request) => {
    const at = request.params.cursor === undefined ? 1 : Number(String(request.params.cursor).slice(1));
    const items = [item(2 * at - 1), item(2 * at)];
    return cacheable(at < pages ? { [member]: items, nextCursor: `p${at + 1}` } : { [member]: items });
  };
}

type Lister = (client: Client, options?: ListAllOptions) => Paginated<{ name?: string; uri?: string }>;
const LISTS: [string, string, Lister, (n: number) => object][] = [
  ['tools', 'tools', (c, o) => c.tools({}, o), (n) => ({ name: `t${n}`, inputSchema: { type: 'object' } })],
  ['prompts', 'prompts', (c, o) => c.prompts({}, o), (n) => ({ name: `p${n}` })],
  ['resources', 'resources', (c, o) => c.resources({}, o), (n) => ({ name: `r${n}`, uri: `file:///${n}` })],
  [
    'resourceTemplates',
    'resourceTemplates',
    (c, o) => c.resourceTemplates({}, o),
    (n) => ({ name: `u${n}`, uriTemplate: `file:///{x}/${n}` }),
  ],
];

describe.each(LISTS)('client.%s()', (_name, member, list, item) => {
  it('yields every item of every page, asking one page at a time', async () => {
    await using t = await harness(pagedServer(member, 3, item));
    const names: string[] = [];
    for await (const entry of list(t.client)) names.push(String(entry.name));
    expect(names).toHaveLength(6);
    expect(t.server.requests.map((r) => r.params.cursor)).toEqual([undefined, 'p2', 'p3']);
    expect(await list(t.client, { cache: false }).toArray()).toHaveLength(6);
  });

  it('stops asking when the loop breaks', async () => {
    await using t = await harness(pagedServer(member, 5, item));
    for await (const _entry of list(t.client)) break;
    expect(t.server.requests).toHaveLength(1);
  });

  it('fails with pages-exceeded past maxPages (the items before are yielded)', async () => {
    await using t = await harness(pagedServer(member, 4, item));
    const got: unknown[] = [];
    const error = await (async () => {
      for await (const entry of list(t.client, { maxPages: 2 })) got.push(entry);
    })().catch((e: unknown) => e);
    expect(got).toHaveLength(4);
    expect(isClientError(error, 'pages-exceeded')).toBe(true);
    expect(error).toMatchObject({
      maxPages: 2,
      message: expect.stringMatching(/returned more than 2 pages; raise maxPages/),
    });
  });
});

describe('list iteration bounds', () => {
  it('takes its default cap from listMaxPages, and checks both caps', async () => {
    await using t = await harness(
      pagedServer('tools', 3, (n) => ({ name: `t${n}`, inputSchema: { type: 'object' } })),
      {
        listMaxPages: 2,
      },
    );
    await expect(t.client.tools().toArray()).rejects.toMatchObject({ reason: 'pages-exceeded', maxPages: 2 });
    expect(await t.client.tools({}, { maxPages: 3 }).toArray()).toHaveLength(6);
    expect(() => t.client.tools({}, { maxPages: 0 })).toThrow(
      '"maxPages" expected a positive integer, got 0',
    );
    expect(() => new Client(INFO, { listMaxPages: 1.5 })).toThrow(RangeError);
  });

  it('fails with invalid-result when a server hands back a cursor it already gave (a loop)', async () => {
    await using t = await harness((request) =>
      cacheable({ tools: [], nextCursor: request.params.cursor === 'a' ? 'b' : 'a' }),
    );
    const error = await t.client
      .tools()
      .toArray()
      .catch((e: unknown) => e);
    expect(isClientError(error, 'invalid-result')).toBe(true);
    expect((error as Error).message).toMatch(/handed back the cursor "a" a second time/);
    expect(t.server.requests).toHaveLength(3);
  });

  it('rejects with a page’s own error', async () => {
    await using t = await harness((request) => {
      if (request.params.cursor === 'p2') throw new McpError(-32602, 'Invalid cursor');
      return cacheable({ prompts: [{ name: 'a' }], nextCursor: 'p2' });
    });
    await expect(t.client.prompts().toArray()).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid cursor',
    });
  });
});
