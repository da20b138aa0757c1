// Skills from a real folder: links and special files are never followed, huge files are never read, and a file
// swapped after loading is refused when read.
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpServer } from './mcp-server.js';
import { SkillCatalogError } from './skills-build.js';
import { loadSkills, nodeSkillFiles } from './skills-node.js';
import { errorOf, recordingLogger, request, resultOf } from './test-support/wire.js';

let root: string;
let outside: string;

const write = (path: string, content: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
};
const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nBody\n`;
const problemsOf = async (options = {}) => {
  const error = await loadSkills(root, options).catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(SkillCatalogError);
  return (error as SkillCatalogError).problems;
};

beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), 'skills-node-'));
  root = join(base, 'skills');
  outside = join(base, 'secret.txt');
  writeFileSync(outside, "the server owner's secret");
  write('pdf/SKILL.md', skill('pdf'));
  write('pdf/references/FORMS.md', '# Forms\n');
  write('.git/HEAD', 'hidden');
});

afterEach(() => rmSync(dirname(root), { recursive: true, force: true }));

describe('loadSkills', () => {
  it('serves a folder given as a path or a file: URL, hidden entries skipped', async () => {
    for (const where of [root, pathToFileURL(`${root}/`)]) {
      const catalog = await loadSkills(where);
      expect(catalog.skills.map((entry) => entry.uri)).toEqual(['skill://pdf/SKILL.md']);
      expect(catalog.skills[0]?.resources).toHaveLength(2);
    }
  });

  it('refuses a skill holding a symbolic link (to a file or a folder outside), naming it', async () => {
    symlinkSync(outside, join(root, 'pdf/references/leak.md'));
    expect(await problemsOf()).toEqual([
      {
        path: 'pdf/references/leak.md',
        message: expect.stringContaining('symbolic link or special file, never followed'),
      },
    ]);
    unlinkSync(join(root, 'pdf/references/leak.md'));
    symlinkSync(dirname(outside), join(root, 'pdf/all'));
    expect((await problemsOf()).map((problem) => problem.path)).toEqual(['pdf/all']);
    unlinkSync(join(root, 'pdf/all'));
    symlinkSync(join(root, 'pdf'), join(root, 'linked-skill'));
    expect(await problemsOf()).toEqual([
      {
        path: 'linked-skill',
        message: expect.stringContaining('never followed (copy the file in) (not served)'),
      },
    ]);
  });

  it('refuses a symlinked SKILL.md and a FIFO, and serves the rest with strict: false', async () => {
    write('ok/SKILL.md', skill('ok'));
    mkdirSync(join(root, 'linked'));
    symlinkSync(join(root, 'ok/SKILL.md'), join(root, 'linked/SKILL.md'));
    execFileSync('mkfifo', [join(root, 'pdf/pipe')]);
    const catalog = await loadSkills(root, { strict: false });
    expect(catalog.skills.map((entry) => entry.uri)).toEqual(['skill://ok/SKILL.md']);
    expect(catalog.problems.map((problem) => problem.path).sort()).toEqual(['linked/SKILL.md', 'pdf/pipe']);
  });

  it('never reads a file over the limits (a sparse 20 MiB file)', async () => {
    write('pdf/huge.bin', '');
    truncateSync(join(root, 'pdf/huge.bin'), 20 * 1024 * 1024);
    expect(await problemsOf()).toEqual([
      { path: 'pdf', message: expect.stringContaining('over the limits of 512 files / 16777216 bytes') },
    ]);
  });

  it('refuses to read a file swapped for a link, or grown, after loading: -32603, and serves on', async () => {
    const catalog = await loadSkills(root);
    const logger = recordingLogger();
    const mcp = new McpServer({ name: 's', version: '1' }, { extensions: [catalog.extension], logger });
    catalog.register(mcp);
    const read = (uri: string) => mcp.handle(request('resources/read', { uri }));
    unlinkSync(join(root, 'pdf/references/FORMS.md'));
    symlinkSync(outside, join(root, 'pdf/references/FORMS.md'));
    expect(errorOf(await read('skill://pdf/references/FORMS.md')).code).toBe(-32603);
    unlinkSync(join(root, 'pdf/references/FORMS.md'));
    write('pdf/references/FORMS.md', '# Forms, and more\n');
    expect(errorOf(await read('skill://pdf/references/FORMS.md')).code).toBe(-32603);
    expect(resultOf(await read('skill://pdf/SKILL.md')).contents).toMatchObject([{ text: skill('pdf') }]);
    expect(logger.lines).toHaveLength(2);
  });
});

describe('nodeSkillFiles', () => {
  it('takes only paths below its root, and reads only regular files within the size asked', async () => {
    const files = nodeSkillFiles(root);
    for (const path of ['../secret.txt', 'pdf/../../secret.txt', '/etc/passwd', 'pdf//SKILL.md']) {
      await expect(files.read(path, 100)).rejects.toThrow();
    }
    await expect(files.read('pdf/SKILL.md', 3)).rejects.toThrow(RangeError);
    await expect(files.read('pdf/references', 100)).rejects.toThrow('not a regular file');
    expect(new TextDecoder().decode(await files.read('pdf/SKILL.md', 1000))).toBe(skill('pdf'));
  });
});
