// The packages as a user gets them: every publishable package packed (`pnpm pack`, as `pnpm publish` packs it),
// the tarballs installed with npm into a fresh project outside the workspace (third-party dependencies from the
// registry), then typechecked and run there: the README's quick start over stdio, an MRTR flow over Streamable
// HTTP, @boomerang/testing's harness, every entry point and class name, the seal bin, and require(esm).
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ensureBuilt } from '@boomerang/test-kit/built';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const appDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = join(appDir, '../..');
const exec = promisify(execFile);
/** Runs a program; when it fails, the error carries what it printed (tsc reports its errors on stdout). */
const run = async (file: string, args: string[], cwd: string, timeout = 110_000) => {
  try {
    return await exec(file, args, { cwd, timeout, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    if (error instanceof Error) error.message += `\n${stdout}${stderr}`.slice(0, 8_000);
    throw error;
  }
};

/** What `node scripts/pack.mjs` prints for each package. */
interface Pack {
  readonly name: string;
  readonly dir: string;
  readonly tarball: string;
  readonly packed: number;
  readonly unpacked: number;
  readonly files: number;
}

async function publishable(): Promise<string[]> {
  const names: string[] = [];
  for (const dir of await readdir(join(repoRoot, 'packages'))) {
    const manifest = JSON.parse(await readFile(join(repoRoot, 'packages', dir, 'package.json'), 'utf8'));
    if (manifest.private !== true) names.push(manifest.name);
  }
  return names.sort();
}

/** Errors npm reports when the registry cannot be reached at all. */
const offline = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH/;

// Each step spawns a program (tsc, node) that a busy two-core machine may take a while to start.
describe('the packed packages, installed from their tarballs in a fresh npm project', {
  timeout: 120_000,
}, () => {
  let work = '';
  let packs: Pack[] = [];
  let unavailable: string | undefined;
  let names: string[] = [];

  beforeAll(async () => {
    names = await publishable();
    unavailable = ensureBuilt({ appDir, runs: names });
    if (unavailable !== undefined) return;
    work = await mkdtemp(join(tmpdir(), 'boomerang-consumer-'));
    const started = Date.now();
    const packed = await run(
      process.execPath,
      [join(repoRoot, 'scripts/pack.mjs'), join(work, 'tarballs')],
      repoRoot,
      180_000,
    );
    packs = JSON.parse(packed.stdout) as Pack[];
    console.log(`${packed.stderr}(packed in ${((Date.now() - started) / 1000).toFixed(1)} s)`);

    await writeFile(
      join(work, 'package.json'),
      `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
    );
    await cp(join(appDir, 'consumer'), work, { recursive: true });
    for (const file of ['server.ts', 'client.ts']) await cp(join(appDir, 'src', file), join(work, file));
    const typescript = JSON.parse(
      await readFile(join(repoRoot, 'node_modules/typescript/package.json'), 'utf8'),
    );
    const installStarted = Date.now();
    try {
      await run(
        'npm',
        [
          'install',
          ...packs.map((p) => p.tarball),
          'zod@^4',
          '@opentelemetry/api@~1.9.0',
          '@opentelemetry/sdk-trace-base@^2.12.0',
          `typescript@${typescript.version}`,
          // What `npm install -D typescript` gives a newcomer today: TypeScript 7, beside the repo's own.
          'typescript7@npm:typescript@^7.0.2',
          '@types/node@^20.19',
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
        ],
        work,
        180_000,
      );
    } catch (error) {
      const output = `${(error as { stderr?: string }).stderr ?? ''}${String(error)}`;
      if (process.env.CI === undefined && offline.test(output)) {
        unavailable = `the npm registry is unreachable, so the tarballs' dependencies cannot install: ${output.slice(0, 300)}`;
        return;
      }
      throw error;
    }
    console.log(
      `npm install of ${packs.length} tarballs: ${((Date.now() - installStarted) / 1000).toFixed(1)} s`,
    );
  }, 400_000);

  afterAll(async () => {
    if (work !== '') await rm(work, { recursive: true, force: true });
  });

  it('packs every publishable package; its files and sizes are printed above', (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    expect(packs.map((p) => p.name).sort()).toEqual(names);
    for (const pack of packs) {
      expect(pack.files).toBeGreaterThan(3);
      expect(pack.unpacked).toBeGreaterThan(pack.packed);
    }
  });

  it('installs each of our packages from its tarball, none from the registry', async (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    const scoped = names.filter((name) => name.startsWith('@boomerang/'));
    expect(
      (await readdir(join(work, 'node_modules/@boomerang'))).map((d) => `@boomerang/${d}`).sort(),
    ).toEqual(scoped);
    const lock = JSON.parse(await readFile(join(work, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { resolved?: string }>;
    };
    const ours = Object.entries(lock.packages).filter(([path]) =>
      names.some((name) => path.endsWith(`node_modules/${name}`)),
    );
    expect(ours.map(([path]) => path.replace(/^.*node_modules\/(@boomerang\/)?/, '$1')).sort()).toEqual(
      names,
    );
    for (const [, entry] of ours) expect(entry.resolved ?? '').toMatch(/^file:/);
  });

  it('typechecks strictly with @types/node and no skipLibCheck, and compiles', async (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    await run(process.execPath, [join(work, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], work);
  });

  it("typechecks with TypeScript 7 too, under the README's settings", async (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    const tsc7 = join(work, 'node_modules/typescript7/bin/tsc');
    const { stdout } = await run(process.execPath, [tsc7, '--version'], work);
    expect(stdout).toMatch(/Version 7\./);
    await run(process.execPath, [tsc7, '-p', 'tsconfig.json', '--noEmit'], work);
  });

  it('typechecks in a browser-only project: no @types/node, lib with ESNext.Disposable', async (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    await run(
      process.execPath,
      [join(work, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.browser.json'],
      work,
    );
  });

  it("runs the README's quick start: the client starts the stdio server and answers its question", async (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    const { stdout } = await run(process.execPath, ['client.js'], join(work, 'dist'));
    expect(stdout).toContain("[ { type: 'text', text: 'Hello, Ada!' } ]");
  });

  it('runs an MRTR flow over Streamable HTTP (listen on 127.0.0.1, fetch client)', async (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    const { stdout } = await run(process.execPath, ['dist/http.js'], work);
    const out = JSON.parse(stdout) as { url: string; asked: string[]; content: unknown };
    expect(new URL(out.url).hostname).toBe('127.0.0.1');
    expect(out.asked).toEqual(['Order tea?']);
    expect(out.content).toEqual([{ type: 'text', text: 'Ordered tea' }]);
  });

  it("runs @boomerang/testing's harness on that server", async (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    const { stdout } = await run(process.execPath, ['dist/harness.js'], work);
    expect(stdout.trim()).toBe('harness ok');
  });

  it('loads every entry point; every exported class keeps its name', async (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    const { stdout } = await run(process.execPath, ['dist/names.js'], work);
    const out = JSON.parse(stdout) as { classes: string[]; printed: string };
    expect(out.classes).toEqual(
      expect.arrayContaining([
        '@boomerang/protocol:McpError',
        '@boomerang/client:ClientError',
        '@boomerang/seal:SealError',
        '@boomerang/auth:OAuthError',
        '@boomerang/mcp-server:McpServer',
        '@boomerang/server:Server',
      ]),
    );
    expect(out.printed).toBe('McpError: Invalid params');
  });

  it('traces a two-question flow as one trace, with the caller meta on every round and a rate limit', async (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    const { stdout } = await run(process.execPath, ['dist/telemetry.js'], work);
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(out.content).toEqual([{ type: 'text', text: 'api → eu' }]);
    // Every span in one trace; one client span for the call; 3 server round spans, each a child of a client round.
    expect(out).toMatchObject({ traces: 1, calls: 1, rounds: 3, roundsUnderCall: true, served: 3 });
    expect(out.servedUnderRounds).toEqual(out.roundIds);
    expect(out.serverRounds).toEqual([0, 1, 2]);
    expect(out.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'deploy',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2026-07-28',
      'jsonrpc.request.id': expect.any(String),
      'mcp.mrtr.round': 0,
      'mcp.mrtr.outcome': 'input_required',
      'mcp.mrtr.input_requests': 1,
    });
    expect(out.metas).toEqual(['round 0: acme', 'round 1: acme', 'round 2: acme', 'acme']);
    expect(out.refused).toEqual({ code: -32029, data: { retryAfterMs: expect.any(Number) } });
  });

  it('links the boomerang-seal bin, which runs', async (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    const { stdout } = await run(join(work, 'node_modules/.bin/boomerang-seal'), ['keygen'], work);
    expect(stdout.trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('links the boomerang-codemod bin, whose dry run prints a diff', async (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    const official = `import { McpServer } from '@modelcontextprotocol/server';\nconst server = new McpServer({ name: 's', version: '1' });\nserver.registerTool('ping', {}, async () => ({ content: [] }));\n`;
    await writeFile(join(work, 'official.ts'), official);
    const { stdout } = await run(
      join(work, 'node_modules/.bin/boomerang-codemod'),
      ['--dry-run', 'official.ts'],
      work,
    );
    expect(stdout).toContain("+server.tool('ping', {}, async () => ({ content: [] }));");
    expect(await readFile(join(work, 'official.ts'), 'utf8')).toBe(official);
  });

  it('loads from CommonJS with require() (Node >= 20.19)', async (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    const { stdout } = await run(process.execPath, ['require.cjs'], work);
    expect(JSON.parse(stdout)).toEqual({ client: 'function', server: 'function', opened: { ok: true } });
  });
});
