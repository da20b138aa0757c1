// Whether the built site still matches its sources: tests reuse a fresh build instead of building again.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { filesBelow } from './files.js';
import { apiDir, appDir, distDir, repoRoot, siteDir } from './paths.js';

/** The file the build writes last: when it is there, the build finished. */
export const BUILT_MARKER = join(distDir, 'llms-full.txt');

/**
 * Whether the built site is missing, or older than anything it is built from: the pages and the theme, this
 * app's sources (examples included), the packages' sources (the API reference) and the changesets.
 */
export function siteIsStale(): boolean {
  if (!existsSync(BUILT_MARKER)) return true;
  const builtAt = statSync(BUILT_MARKER).mtimeMs;
  const generated = join(siteDir, 'changelog.md');
  const inputs = [
    ...filesBelow(siteDir, (file) => !file.startsWith(apiDir) && file !== generated),
    ...filesBelow(
      join(siteDir, '.vitepress'),
      (file) => /\.(mts|ts|css|vue)$/.test(file) && !file.includes('/cache/'),
    ),
    ...filesBelow(join(appDir, 'src'), (file) => !file.endsWith('.test.ts')),
    ...readdirSync(join(repoRoot, '.changeset')).map((file) => join(repoRoot, '.changeset', file)),
    ...filesBelow(join(repoRoot, 'packages'), (file) => /\/src\/.*\.ts$/.test(file)),
  ];
  return inputs.some((file) => statSync(file).mtimeMs > builtAt);
}
