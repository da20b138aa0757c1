// One fixture per rewrite, in memory (migrateText): what each construct becomes, and what is left with a comment
// and a note. The whole-server test (migrate.test.ts) compiles and runs the output.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Project, SyntaxKind } from 'ts-morph';
import { beforeAll, describe, expect, it } from 'vitest';
import { migrateText, runCli } from './index.js';

// Placed in this package, so the official SDK and zod resolve and the types guide the rewrite.
const at = join(import.meta.dirname, 'fixture.ts');
const v1 = (body: string) =>
  `import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { z } from 'zod';\nconst server = new McpServer({ name: 's', version: '1' });\n${body}\n`;
const manual = (text: string) => migrateText(text, at).notes.filter((n) => n.kind === 'manual');

// The first call reads the declaration files of the official SDK and zod (seconds on a busy machine).
beforeAll(() => void migrateText(v1(''), at), 120_000);

describe('v1 overloads', () => {
  it('tool(name, description, shape, annotations, cb) becomes tool(name, config, handler)', () => {
    const out = migrateText(
      v1(
        `server.tool('add', 'Adds', { a: z.number() }, { readOnlyHint: true }, async ({ a }, extra) => ({ content: [{ type: 'text', text: String(a) + extra.requestId }] }));`,
      ),
      at,
    ).after;
    expect(out).toContain(
      `server.tool('add', { description: 'Adds', input: z.object({ a: z.number() }), annotations: { readOnlyHint: true } }, async ({ a }, _resolved, extra) =>`,
    );
    expect(out).toContain("import { McpServer } from '@boomerang/mcp-server';");
  });

  it('tool(name, cb) gets an empty config and (args, resolved, ctx)', () => {
    const out = migrateText(
      v1(
        `server.tool('now', async (extra) => ({ content: [{ type: 'text', text: String(extra.signal.aborted) }] }));`,
      ),
      at,
    ).after;
    expect(out).toContain(`server.tool('now', {  }, async (_args, _resolved, extra) =>`);
  });

  it('prompt(name, shape, cb) and resource(name, template, cb)', () => {
    const out = migrateText(
      v1(`server.prompt('p', { topic: z.string() }, ({ topic }) => ({ messages: [] }));
server.resource('r', new ResourceTemplate('r://{id}', { list: undefined }), async (uri, { id }) => ({ contents: [{ uri: uri.href, text: String(id) }] }));`),
      at,
    ).after;
    expect(out).toContain(`server.prompt('p', { input: z.object({ topic: z.string() }) }, ({ topic }) =>`);
    expect(out).toContain(`server.resourceTemplate('r://{id}', { name: 'r' }, async (vars) => {`);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the generated code is a template literal
    expect(out).toContain('const uri = new URL(`r://${encodeURIComponent(String(vars.id))}`);');
    expect(out).not.toContain('ResourceTemplate }');
  });

  it('a template with a list callback is reported', () => {
    const notes = manual(
      v1(
        `server.resource('r', new ResourceTemplate('r://{id}', { list: async () => ({ resources: [] }) }), async (uri) => ({ contents: [] }));`,
      ),
    );
    expect(notes.map((n) => n.message).join()).toContain('"list" callback has no Boomerang counterpart');
  });
});

describe('elicitInput', () => {
  const v2 = (handler: string) =>
    `import { McpServer } from '@modelcontextprotocol/server';\nimport * as z from 'zod/v4';\nconst server = new McpServer({ name: 's', version: '1' });\nconst SCHEMA = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } };\nserver.registerTool('t', { inputSchema: z.object({ id: z.string() }) }, ${handler});\n`;

  it('a clear confirmation from the arguments and an outer schema becomes a resolver', () => {
    const out = migrateText(
      v2(
        `async ({ id }, ctx) => {\n  const ok = await ctx.mcpReq.elicitInput({ message: 'Sure about ' + id + '?', requestedSchema: SCHEMA });\n  return { content: [{ type: 'text', text: ok.action }] };\n}`,
      ),
      at,
    );
    expect(out.after).toContain(
      `const askTOk = resolver({ args: ['id'] }, ({ id }: { id: string }) =>\n  elicitResult('Sure about ' + id + '?', SCHEMA),`,
    );
    expect(out.after).toContain(`resolve: { ok: askTOk }`);
    expect(out.after).toContain('async ({ id }, { ok }) => {');
    expect(out.notes.filter((n) => n.kind === 'manual')).toEqual([]);
  });

  it.each([
    [
      'inside a branch',
      `async ({ id }, ctx) => {\n  if (id) { const a = await ctx.mcpReq.elicitInput({ message: 'm', requestedSchema: SCHEMA }); }\n  return { content: [] };\n}`,
      'asked conditionally',
    ],
    [
      'after a return',
      `async ({ id }, ctx) => {\n  if (!id) return { content: [] };\n  const a = await ctx.mcpReq.elicitInput({ message: 'm', requestedSchema: SCHEMA });\n  return { content: [{ type: 'text', text: a.action }] };\n}`,
      'may return before asking',
    ],
    [
      'from a local',
      `async ({ id }, ctx) => {\n  const label = id.toUpperCase();\n  const a = await ctx.mcpReq.elicitInput({ message: label, requestedSchema: SCHEMA });\n  return { content: [{ type: 'text', text: a.action }] };\n}`,
      '"label" is computed inside the handler',
    ],
    [
      'in URL mode',
      `async ({ id }, ctx) => {\n  const a = await ctx.mcpReq.elicitInput({ mode: 'url', message: 'm', url: 'https://x.test/' + id, elicitationId: id });\n  return { content: [{ type: 'text', text: a.action }] };\n}`,
      'not a form elicitation',
    ],
    [
      'not awaited',
      `async ({ id }, ctx) => {\n  void ctx.mcpReq.elicitInput({ message: id, requestedSchema: SCHEMA });\n  return { content: [] };\n}`,
      'not awaited into a variable',
    ],
  ])('%s: left with a comment that says why', (_case, handler, reason) => {
    const out = migrateText(v2(handler), at);
    const notes = out.notes.filter((n) => n.kind === 'manual');
    expect(notes).toHaveLength(1);
    expect(notes[0]?.message).toContain(reason);
    expect(out.after).toContain(`// boomerang-codemod: elicitInput is a server→client request`);
    expect(out.after).toContain('guides/resolvers.md');
  });
});

describe('serving', () => {
  it('createMcpHandler and toNodeHandler', () => {
    const out = migrateText(
      `import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';\nimport { toNodeHandler } from '@modelcontextprotocol/node';\nfunction build() { return new McpServer({ name: 's', version: '1' }); }\nconst handler = createMcpHandler(build);\nexport const fetchIt = (r: Request) => handler.fetch(r);\nexport const node = toNodeHandler(createMcpHandler(build));\n`,
      at,
    ).after;
    expect(out).toContain('const handler = createHttpHandler(build());');
    expect(out).toContain('(r: Request) => handler(r);');
    expect(out).toContain('toNodeHandler(build())');
    expect(out).toContain("import { toNodeHandler } from '@boomerang/transport-http/node';");
  });

  it('an Express route feeding a StreamableHTTPServerTransport becomes toNodeHandler', () => {
    const out = migrateText(
      `import express from 'express';\nimport { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';\nconst getServer = () => new McpServer({ name: 's', version: '1' });\nconst app = express();\napp.use(express.json());\napp.post('/mcp', async (req, res) => {\n  const server = getServer();\n  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });\n  await server.connect(transport);\n  await transport.handleRequest(req, res, req.body);\n});\napp.listen(3000);\n`,
      at,
    ).after;
    expect(out).toContain("const mcpHandler = toNodeHandler(getServer());\napp.post('/mcp', mcpHandler);");
    expect(out).not.toContain('StreamableHTTPServerTransport');
  });

  it('a factory with per-request arguments is left', () => {
    const notes = manual(
      `import { McpServer } from '@modelcontextprotocol/server';\nimport { serveStdio } from '@modelcontextprotocol/server/stdio';\nconst build = (era: string) => new McpServer({ name: era, version: '1' });\nvoid serveStdio((ctx) => build(String(ctx)));\n`,
    );
    expect(notes.map((n) => n.construct)).toContain('serveStdio');
  });
});

describe('what is left', () => {
  it('hand-built MRTR phases get the resolvers comment; builders move to @boomerang/protocol', () => {
    const out = migrateText(
      `import { inputRequired, McpServer } from '@modelcontextprotocol/server';\nconst server = new McpServer({ name: 's', version: '1' });\nserver.registerTool('t', {}, async (ctx) => {\n  if (!ctx.mcpReq.inputResponses) return inputRequired({ inputRequests: { q: inputRequired.elicit({ message: 'm', requestedSchema: { type: 'object', properties: {} } }) } });\n  return { content: [] };\n});\n`,
      at,
    );
    expect(out.after).toContain('elicitRequest({');
    expect(out.after).toContain('ctx.inputResponses');
    expect(out.after).toContain("import { elicitRequest, inputRequired } from '@boomerang/protocol';");
    expect(
      out.notes.some((n) => n.kind === 'manual' && n.message.startsWith('hand-written multi-round-trip')),
    ).toBe(true);
  });

  it('server.server and unknown options are reported, never dropped silently', () => {
    const notes = manual(
      v1(
        `server.server.sendLoggingMessage({ level: 'info', data: 'x' });\nserver.registerTool('t', { description: 'd', execution: { taskSupport: 'optional' } }, async () => ({ content: [] }));`,
      ),
    );
    expect(notes.map((n) => n.construct).sort()).toEqual(['config', 'server']);
  });

  it('files without official imports are untouched', () => {
    const text =
      "import { McpServer } from '@boomerang/mcp-server';\nexport const s = new McpServer({ name: 's', version: '1' });\n";
    expect(migrateText(text, at)).toMatchObject({ after: text, notes: [] });
  });
});

describe('hostile input', () => {
  const calls = (text: string) =>
    new Project({ useInMemoryFileSystem: true })
      .createSourceFile('out.ts', text)
      .getDescendantsOfKind(SyntaxKind.CallExpression)
      .map((call) => call.getExpression().getText());

  it('a name with line breaks cannot end a codemod comment and inject code', () => {
    const source = v1(
      'server.registerTool(`x\nprocess.exit(1)`, { description: "d", execution: {} }, async () => ({ content: [] }));',
    );
    expect(calls(source)).not.toContain('process.exit');
    const out = migrateText(source, at).after;
    expect(out).toContain('// boomerang-codemod: tool \'x process.exit(1)\': "execution"');
    expect(calls(out)).not.toContain('process.exit');
  });

  it('a template with backticks, dollars and backslashes rebuilds the URI it matched', () => {
    const template = 'r://`$\\\\/{id}$';
    const source = v1(
      `server.resource('r', new ResourceTemplate(${JSON.stringify(template)}, { list: undefined }), async (uri) => ({ contents: [{ uri: uri.href, text: '' }] }));`,
    );
    const out = migrateText(source, at).after;
    const line = out.split('\n').find((l) => l.includes('const uri = new URL(')) ?? '';
    const expression = line.slice(line.indexOf('new URL(') + 'new URL('.length, line.lastIndexOf(');'));
    const rebuilt = new Function('vars', `return ${expression};`)({ id: 'a/b' });
    expect(rebuilt).toBe('r://`$\\\\/a%2Fb$');
  });
});

describe('the command', () => {
  it('rewrites files in place and reports, --json included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'codemod-cli-'));
    try {
      const file = join(dir, 'server.ts');
      writeFileSync(
        file,
        v1(
          "server.tool('t', async () => ({ content: [] }));\nserver.server.sendLoggingMessage({ level: 'info', data: 1 });",
        ),
      );
      writeFileSync(join(dir, 'other.ts'), 'export const untouched = 1;\n');
      const out: string[] = [];
      const err: string[] = [];
      expect(runCli(['--json', dir], { stdout: (t) => out.push(t), stderr: (t) => err.push(t) })).toBe(0);
      const report = JSON.parse(out.join(''));
      expect(report.files).toHaveLength(1);
      expect(report.files[0]).toMatchObject({ path: file, changed: true });
      expect(report.files[0].notes.filter((n: { kind: string }) => n.kind === 'manual')).toHaveLength(1);
      expect(readFileSync(file, 'utf8')).toContain("server.tool('t', {  }, async () =>");
      expect(readFileSync(join(dir, 'other.ts'), 'utf8')).toBe('export const untouched = 1;\n');
      // A second run finds nothing official left to migrate, and changes nothing.
      const migrated = readFileSync(file, 'utf8');
      expect(runCli([file], { stdout: (t) => out.push(t), stderr: (t) => err.push(t) })).toBe(0);
      expect(err.at(-1)).toContain('0 file(s)');
      expect(readFileSync(file, 'utf8')).toBe(migrated);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers usage errors with 2 and a missing path with 1', () => {
    const err: string[] = [];
    const io = { stdout: () => {}, stderr: (t: string) => err.push(t) };
    expect(runCli([], io)).toBe(2);
    expect(runCli(['--bogus', 'x'], io)).toBe(2);
    expect(runCli(['/nonexistent/codemod-path'], io)).toBe(1);
    expect(err.at(-1)).toContain('expected an existing file or directory');
  });
});
