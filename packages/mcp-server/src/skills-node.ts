// @boomerang/mcp-server/node: skills served from a folder on disk. The only module of the package that touches
// Node APIs, so the main entry stays runtime-neutral.
import { constants, type Dirent } from 'node:fs';
import { lstat, open, readdir, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type SkillCatalog, type SkillCatalogOptions, skillCatalog } from './skills.js';
import type { SkillFileEntry, SkillFiles } from './skills-build.js';

function kindOf(entry: Dirent): SkillFileEntry['kind'] {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  return 'other';
}

/**
 * A {@link SkillFiles} over the folder `root` (a path or a `file:` URL). It never follows a symbolic link:
 * listing reports links as `other` (the catalog then refuses their skill), and reading opens with `O_NOFOLLOW`,
 * re-checks that the file's real path is still inside `root`, and reads only a regular file no larger than asked
 * (opened non-blocking, so a FIFO swapped in cannot hang the server). Paths come from the adapter's own listing.
 */
export function nodeSkillFiles(root: string | URL): SkillFiles {
  const base = typeof root === 'string' ? root : fileURLToPath(root);
  let realRoot: Promise<string> | undefined;
  const resolve = (path: string): string => {
    const names = path === '' ? [] : path.split('/');
    if (names.some((name) => name === '' || name === '.' || name === '..' || /[\\\0]/.test(name))) {
      throw new TypeError(`"${path}" is not a path below the skills folder`);
    }
    return join(base, ...names);
  };
  return {
    async list(path) {
      const entries = await readdir(resolve(path), { withFileTypes: true });
      return Promise.all(
        entries.map(async (entry): Promise<SkillFileEntry> => {
          const kind = kindOf(entry);
          if (kind !== 'file') return { name: entry.name, kind };
          const stats = await lstat(join(resolve(path), entry.name));
          return { name: entry.name, kind: stats.isFile() ? 'file' : 'other', size: stats.size };
        }),
      );
    },
    async read(path, maxBytes) {
      const full = resolve(path);
      realRoot ??= realpath(base);
      const [real, inside] = await Promise.all([realpath(full), realRoot]);
      if (!real.startsWith(inside + sep)) throw new Error(`${path} resolves outside the skills folder`);
      const handle = await open(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      try {
        const stats = await handle.stat();
        if (!stats.isFile()) throw new Error(`${path} is not a regular file`);
        if (stats.size > maxBytes) throw new RangeError(`${path} is ${stats.size} bytes, over ${maxBytes}`);
        const bytes = new Uint8Array(stats.size);
        let filled = 0;
        while (filled < bytes.length) {
          const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        return filled === bytes.length ? bytes : bytes.subarray(0, filled);
      } finally {
        await handle.close();
      }
    },
  };
}

/**
 * Loads the skills below the folder `root` (a path or a `file:` URL): every folder holding a `SKILL.md` is a
 * skill (`skills/pdf-processing/SKILL.md` → `skill://pdf-processing/SKILL.md`). Rejects with a
 * `SkillCatalogError` listing every problem (see {@link SkillCatalogOptions.strict}).
 *
 * ```ts
 * const skills = await loadSkills(new URL('./skills/', import.meta.url));
 * const mcp = new McpServer({ name: 'docs', version: '1.0.0' }, { extensions: [skills.extension] });
 * skills.register(mcp);
 * ```
 */
export function loadSkills(root: string | URL, options?: SkillCatalogOptions): Promise<SkillCatalog> {
  return skillCatalog(nodeSkillFiles(root), options);
}
