// Where everything the docs build reads and writes lives, from this app's directory.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `apps/docs`. Source files sit in `src/`, the tsup build in `dist/`: both are one level below. */
export const appDir = fileURLToPath(new URL('..', import.meta.url));
/** The repository root. */
export const repoRoot = join(appDir, '../..');
/** The VitePress source directory: the pages. */
export const siteDir = join(appDir, 'site');
/** The built static site. */
export const distDir = join(siteDir, '.vitepress/dist');
/** Generated API reference pages (typedoc). */
export const apiDir = join(siteDir, 'api');
/** Scratch space of the build (the typedoc tsconfig, its input digest). */
export const cacheDir = join(appDir, '.cache');
