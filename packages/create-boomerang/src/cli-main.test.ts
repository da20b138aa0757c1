import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliEnvironment, DEFAULT_DIR, runCli } from './cli-main.js';
import type { PackageManager } from './install.js';

let cwd = '';
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), 'create-boomerang-cli-'));
});
afterEach(() => {
  rmSync(cwd, { recursive: true, force: true });
});

/** Runs the CLI in `cwd`, recording what it printed and the installs it ran (each exits with `installCode`). */
async function run(
  argv: string[],
  options: { answers?: string[]; env?: CliEnvironment['env']; installCode?: number } = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const asked: string[] = [];
  const installs: [PackageManager, string][] = [];
  const answers = options.answers;
  const code = await runCli(
    argv,
    {
      stdout: (text) => out.push(text),
      stderr: (text) => err.push(text),
      ask:
        answers === undefined
          ? undefined
          : async (question) => {
              asked.push(question);
              return answers.shift() ?? '';
            },
    },
    {
      cwd,
      env: options.env ?? {},
      install: async (manager, dir) => {
        installs.push([manager, dir]);
        return options.installCode ?? 0;
      },
    },
  );
  return { code, out: out.join(''), err: err.join(''), asked, installs };
}

describe('runCli', () => {
  it('writes the project, installs it with npm and prints the next steps', async () => {
    const r = await run(['my-app']);
    expect(r.code).toBe(0);
    expect(r.installs).toEqual([['npm', join(cwd, 'my-app')]]);
    expect(JSON.parse(readFileSync(join(cwd, 'my-app/package.json'), 'utf8')).name).toBe('my-app');
    expect(r.out).toContain('from the server template');
    expect(r.out).toMatch(/Next:\n {2}cd my-app\n {2}npm test .*\n {2}npm run dev/);
    expect(existsSync(join(cwd, 'my-app/.npmrc'))).toBe(false);
  });

  it('--no-install writes the files only, and says to install', async () => {
    const r = await run(['app', '--no-install', '--template', 'http']);
    expect(r.code).toBe(0);
    expect(r.installs).toEqual([]);
    expect(readFileSync(join(cwd, 'app/src/server.ts'), 'utf8')).toContain('@boomerang/transport-http/node');
    expect(r.out).toMatch(/cd app\n {2}npm install\n/);
  });

  it('installs with the package manager that ran it, and names its commands', async () => {
    const r = await run(['app'], { env: { npm_config_user_agent: 'pnpm/10.34.9 npm/? node/v20.19.0' } });
    expect(r.installs).toEqual([['pnpm', join(cwd, 'app')]]);
    expect(r.out).toContain('pnpm dev');
  });

  it('writes a --registry to the project .npmrc, for the @boomerang scope', async () => {
    const r = await run(['app', '--registry', 'http://127.0.0.1:4873', '--no-install']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(cwd, 'app/.npmrc'), 'utf8')).toBe(
      '@boomerang:registry=http://127.0.0.1:4873/\n',
    );
  });

  it('takes the registry npm was started with, unless it is the public one', async () => {
    await run(['a', '--no-install'], { env: { npm_config_registry: 'http://127.0.0.1:4873/' } });
    expect(readFileSync(join(cwd, 'a/.npmrc'), 'utf8')).toContain('127.0.0.1:4873');
    await run(['b', '--no-install'], { env: { npm_config_registry: 'https://registry.npmjs.org/' } });
    expect(existsSync(join(cwd, 'b/.npmrc'))).toBe(false);
  });

  it('asks for the folder and the template in a terminal; a blank answer takes the default', async () => {
    const r = await run(['--no-install'], { answers: ['', 'server-http'] });
    expect(r.code).toBe(0);
    expect(r.asked).toEqual([
      `Project folder (${DEFAULT_DIR}): `,
      'Template: server, server-http (server): ',
    ]);
    expect(existsSync(join(cwd, DEFAULT_DIR, 'src/client.ts'))).toBe(true);
    expect(readFileSync(join(cwd, DEFAULT_DIR, 'package.json'), 'utf8')).toContain('transport-http');
  });

  it('--yes asks nothing', async () => {
    const r = await run(['--yes', '--no-install'], { answers: ['other'] });
    expect(r.asked).toEqual([]);
    expect(existsSync(join(cwd, DEFAULT_DIR))).toBe(true);
  });

  it('refuses a folder that is not empty, and leaves it as it was', async () => {
    mkdirSync(join(cwd, 'taken'));
    writeFileSync(join(cwd, 'taken/notes.txt'), 'mine');
    const r = await run(['taken']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/taken is not empty \(notes\.txt\)/);
    expect(readdirSync(join(cwd, 'taken'))).toEqual(['notes.txt']);
    expect(r.installs).toEqual([]);
  });

  it('accepts a folder holding only .git', async () => {
    mkdirSync(join(cwd, 'repo/.git'), { recursive: true });
    expect((await run(['repo', '--no-install'])).code).toBe(0);
  });

  it('refuses a path that is a file', async () => {
    writeFileSync(join(cwd, 'file'), '');
    const r = await run(['file']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/exists and is not a folder/);
  });

  it('refuses an invalid package name, and writes nothing', async () => {
    const r = await run(['My App']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/"My App" is not a valid package name: .*capital letters.*--name/);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('--name names the package when the folder name cannot', async () => {
    const r = await run(['My App', '--name', 'my-app', '--no-install']);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(cwd, 'My App/package.json'), 'utf8')).name).toBe('my-app');
    expect(r.out).toContain('cd "My App"');
  });

  it('refuses an unknown template and a bad registry, listing what exists', async () => {
    const template = await run(['app', '--template', 'nope']);
    expect(template.code).toBe(1);
    expect(template.err).toMatch(/no template "nope"; the templates are server, server-http/);
    const registry = await run(['app', '--registry', 'ftp://x']);
    expect(registry.code).toBe(1);
    expect(registry.err).toMatch(/http: or https:/);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('exits 2 with the usage on a bad command line; --help and --version exit 0', async () => {
    const bad = await run(['--nope']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('Usage:');
    const help = await run(['--help']);
    expect([help.code, help.out]).toEqual([0, expect.stringContaining('--template')]);
    const version = await run(['-v']);
    expect([version.code, version.out]).toEqual([0, expect.stringMatching(/^\d+\.\d+\.\d+/)]);
  });

  it('exits 1 when the install fails, keeping the files and saying what to run', async () => {
    const r = await run(['app'], { installCode: 7 });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/npm install failed \(exit 7\)/);
    expect(existsSync(join(cwd, 'app/package.json'))).toBe(true);
    expect(r.out).toMatch(/npm install\n/);
  });
});
