// The root README's quick start: its code is these example files, verbatim, and they run.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ensureBuilt } from '@boomerang/test-kit/built';
import { beforeAll, describe, expect, it } from 'vitest';

const appDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = join(appDir, '../..');
const run = promisify(execFile);

/** The body of `// #region name` … `// #endregion name` in an example file. */
async function region(file: string, name: string): Promise<string> {
  const source = await readFile(join(appDir, 'src', file), 'utf8');
  const match = new RegExp(`// #region ${name}\\n([\\s\\S]*?)// #endregion ${name}`).exec(source);
  if (match?.[1] === undefined) throw new Error(`${file} has no region ${name}`);
  return match[1];
}

describe('the root README', () => {
  it('starts with the two commands: the demo, then every check and test', async () => {
    const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
    expect(readme.split('\n').slice(0, 6)).toEqual([
      '# Boomerang',
      '',
      '```sh',
      'npx -y pnpm@10.34.9 install && npx -y pnpm@10.34.9 demo    # install, then run the main demo',
      'npx -y pnpm@10.34.9 install && npx -y pnpm@10.34.9 test    # install, then run every check and test',
      '```',
    ]);
  });

  it('quotes the quick-start server and client verbatim, before the contributor section', async () => {
    const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
    const server = await region('server.ts', 'server');
    const client = await region('client.ts', 'client');
    expect(readme).toContain(`\`\`\`ts\n// server.ts\n${server}\`\`\``);
    expect(readme).toContain(`\`\`\`ts\n// client.ts\n${client}\`\`\``);
    // The sizes the README promises.
    expect(server.trimEnd().split('\n').length).toBeLessThanOrEqual(15);
    expect(client.trimEnd().split('\n').length).toBeLessThanOrEqual(10);
    const quickStart = readme.indexOf('## Quick start');
    expect(quickStart).toBeGreaterThan(0);
    expect(quickStart).toBeLessThan(readme.indexOf(server));
    expect(readme.indexOf(client)).toBeLessThan(readme.indexOf('## Working on the repo'));
  });
});

describe('the quick start, built from source', () => {
  let unavailable: string | undefined;
  beforeAll(() => {
    unavailable = ensureBuilt({
      appDir,
      buildApp: true,
      needs: [join(appDir, 'dist/server.js'), join(appDir, 'dist/client.js')],
    });
  }, 300_000);

  it('the client starts the server over stdio, answers its question, and prints the greeting', async (ctx) => {
    if (unavailable !== undefined) return ctx.skip(unavailable);
    const { stdout } = await run(process.execPath, ['client.js'], {
      cwd: join(appDir, 'dist'),
      timeout: 30_000,
    });
    expect(stdout).toContain("[ { type: 'text', text: 'Hello, Ada!' } ]");
  });
});
