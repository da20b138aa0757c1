// The codemod on a whole official-SDK v2 server (test-support/fixtures/v2-server.ts, typechecked against the real
// @modelcontextprotocol/server 2.4.0 with this package): the output compiles under strict TypeScript and, run as
// a stdio child process, answers every tool, the prompt and the resources through the Boomerang client; the
// elicitInput confirmation completes as MRTR rounds.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from './index.js';
import { connectTo, emit, typeErrors, workDir } from './test-support/compiled.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixture = join(here, 'test-support/fixtures/v2-server.ts');

describe('a v2 server, migrated', () => {
  const work = workDir();
  const result = migrate([fixture]);
  const migration = result.files[0];
  const after = migration?.after ?? '';
  const runnable = after;
  let session: Awaited<ReturnType<typeof connectTo>>;

  beforeAll(async () => {
    session = await connectTo(await emit(work.dir, 'server.ts', runnable), () => ({
      action: 'accept',
      content: { confirm: true },
    }));
  }, 30_000);
  afterAll(async () => {
    await session?.client.close();
    work.dispose();
  });

  it('writes nothing on a dry run and shows a diff', () => {
    expect(readFileSync(fixture, 'utf8')).toBe(migration?.before);
    expect(result.diff).toContain('-  server.registerTool(');
    expect(result.diff).toContain('+  server.tool(');
  });

  it('reports what it leaves, with a comment in the code', () => {
    const manual = migration?.notes.filter((n) => n.kind === 'manual') ?? [];
    expect(manual.map((n) => n.construct)).toEqual(['McpServer']);
    expect(manual[0]?.message).toContain('"enforceStrictCapabilities"');
    expect(after.match(/boomerang-codemod:/g)).toHaveLength(1);
  });

  it('rewrites imports, registrations, shapes and serving', () => {
    expect(after).not.toContain("from '@modelcontextprotocol");
    expect(after).toContain('type ToolResult as CallToolResult');
    expect(after).toContain(
      "import { elicitResult, McpServer, resolver, type ToolResult as CallToolResult } from '@boomerang/mcp-server';",
    );
    expect(after).toContain('input: z.object({ a: z.number()');
    expect(after).toContain("server.resourceTemplate(\n    'notes://{title}'");
    expect(after).toContain('void buildServer().connect(new StdioServerTransport());');
    expect(after).toContain('resolve: { answer: askDeleteNoteAnswer }');
  });

  it('compiles under strict TypeScript', () => {
    expect(typeErrors(work.dir, { 'typed.ts': runnable })).toEqual([]);
  }, 60_000);

  it('answers a plain tool, a tool with a zod shape and one with a zod object', async () => {
    const text = async (name: string, args?: Record<string, unknown>) => {
      const result = await session.client.callTool(name, args);
      return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    };
    expect(await text('ping')).toBe('pong');
    expect(await text('add', { a: 2, b: 3 })).toBe('5');
    expect(await text('save_note', { title: 'todo', text: 'milk' })).toBe('saved todo');
    // Arguments that fail the schema: an error result the model can read, and the server keeps serving.
    const wrong = await session.client.callTool('add', { a: 'two' });
    expect(wrong.isError).toBe(true);
    expect(await text('add', { a: 1, b: 1 })).toBe('2');
  });

  it('asks the elicitInput confirmation as an MRTR round, then runs the handler', async () => {
    const result = await session.client.callTool('delete_note', { title: 'todo' });
    expect(result.content).toEqual([{ type: 'text', text: 'deleted todo' }]);
    expect(session.rounds).toEqual(['Delete the note "todo"?']);
  });

  it('answers the prompt and reads the template and static resources', async () => {
    const prompt = await session.client.getPrompt('summarize', { title: 'welcome' });
    expect(prompt.messages[0]?.content).toEqual({
      type: 'text',
      text: 'Summarize: Hello from the notes server',
    });
    const note = await session.client.readResource('notes://welcome');
    expect(note.contents).toEqual([{ uri: 'notes://welcome', text: 'Hello from the notes server' }]);
    const index = await session.client.readResource('notes://index');
    expect(index.contents[0]).toMatchObject({ uri: 'notes://index' });
  });
});
