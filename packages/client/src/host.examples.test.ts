import { readFileSync } from 'node:fs';
import { Server } from '@boomerang/server';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { survey } from './host.examples.js';

/** A server with two pages of tools, one with an outputSchema; `weather` logs and answers `temperature`. */
function weatherServer(temperature: unknown) {
  const weather = {
    name: 'weather',
    inputSchema: { type: 'object' as const },
    outputSchema: {
      type: 'object',
      properties: { temperature: { type: 'number' } },
      required: ['temperature'],
    },
  };
  const other = { name: 'other', inputSchema: { type: 'object' as const } };
  return new Server(
    { name: 'wx', version: '1' },
    {
      onListTools: async (params) =>
        params.cursor === undefined ? { tools: [other], nextCursor: 'p2' } : { tools: [weather] },
      onCallTool: async (_params, ctx) => {
        await ctx.log('debug', { fetching: 'Lisbon' });
        return { content: [], structuredContent: { temperature } };
      },
      capabilities: { logging: {} },
    },
  );
}

describe('README example: host', () => {
  it('README.md quotes the example region verbatim', () => {
    const source = readFileSync(new URL('./host.examples.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const body = /\/\/ #region host\n([\s\S]*?)\n+\/\/ #endregion host/.exec(source)?.[1];
    expect(readme).toContain(body?.trim());
  });

  it('lists both pages, gets the debug log of the call, and accepts a matching result', async () => {
    const log: string[] = [];
    const [clientSide, serverSide] = createInMemoryPair();
    const connection = await weatherServer(21).connect(serverSide);
    const result = await survey(clientSide, log);
    await connection.close();
    expect(result.tools.map((t) => t.name)).toEqual(['other', 'weather']);
    expect(result.answer).toBe('{"temperature":21}');
    expect(log).toEqual(['debug  {"fetching":"Lisbon"}']);
  });

  it('turns a result that breaks the outputSchema into an invalid-result', async () => {
    const [clientSide, serverSide] = createInMemoryPair();
    const connection = await weatherServer('warm').connect(serverSide);
    const result = await survey(clientSide, []);
    await connection.close();
    expect(result.answer).toMatch(/^rejected: .*structuredContent\.temperature/);
  });
});
