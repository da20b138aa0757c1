import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFixtures, type FixtureBundle } from '../test-fixtures/bundle.js';

const EXAMPLES = ['src/greeter-server.examples.ts', 'src/greeter-host.examples.ts'];

let programs: FixtureBundle;
beforeAll(async () => {
  programs = await bundleFixtures(EXAMPLES);
});
afterAll(() => programs?.remove());

describe('README example', () => {
  it('the host spawns the greeter server, calls its tool, and both exit', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [programs.path('greeter-host'), programs.path('greeter-server')],
      { timeout: 10_000 },
    );
    expect(stdout).toBe('Hello, Ada!\n');
  });

  it('README.md quotes both programs verbatim (from their first import on)', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    for (const example of EXAMPLES) {
      const source = await readFile(new URL(`../${example}`, import.meta.url), 'utf8');
      expect(readme, `${example} is not quoted in README.md`).toContain(
        source.slice(source.search(/^import /m)), // from the first import statement
      );
    }
  });
});
