// The codemod over files on disk: which files, a project for their types, the migration of each, a unified diff
// for the dry run.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { Project, ts } from 'ts-morph';
import { type FileMigration, migrateSourceFile } from './migrate-file.js';

/** Options of {@link migrate}. */
export interface MigrateOptions {
  /** Write the migrated files (default `false`: a dry run; read `diff` instead). */
  readonly write?: boolean | undefined;
  /**
   * The tsconfig.json whose compiler options type the files (default: the nearest one above the first path, or
   * Node's ESM defaults). Types make the rewrite surer (which object is an official McpServer, the types of the
   * arguments a resolver reads), so run the codemod where the official SDK is still installed.
   */
  readonly tsconfig?: string | undefined;
}

/** What {@link migrate} did. */
export interface MigrationResult {
  /** Every file looked at that imports the official SDK, migrated or not. */
  readonly files: readonly FileMigration[];
  /** A unified diff of every changed file (paths relative to the working directory). */
  readonly diff: string;
}

const SOURCE = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;

/**
 * Migrates the TypeScript and JavaScript files at `paths` (files, or directories searched recursively, skipping
 * `node_modules`, `dist` and dot-directories) from the official MCP TypeScript SDK to Boomerang. Files that import
 * nothing from `@modelcontextprotocol/*` are left alone and not listed. Throws `TypeError` for a path that does
 * not exist.
 */
export function migrate(paths: readonly string[], options: MigrateOptions = {}): MigrationResult {
  const files = paths.flatMap((path) => sourceFiles(resolve(path)));
  const tsconfig = options.tsconfig ?? nearestTsconfig(files[0] ?? process.cwd());
  const project =
    tsconfig !== undefined
      ? new Project({
          tsConfigFilePath: tsconfig,
          skipAddingFilesFromTsConfig: true,
          compilerOptions: { allowJs: true },
        })
      : new Project({ compilerOptions: defaultCompilerOptions() });
  const sources = files.map((file) => project.addSourceFileAtPath(file));
  const migrations = sources
    .map((source) => migrateSourceFile(source))
    .filter((m) => m.before !== m.after || m.notes.length > 0);
  let diff = '';
  for (const migration of migrations) {
    if (migration.before === migration.after) continue;
    const name = relative(process.cwd(), migration.path);
    diff += createTwoFilesPatch(`a/${name}`, `b/${name}`, migration.before, migration.after, '', '', {
      context: 3,
    });
  }
  if (options.write === true) {
    for (const migration of migrations) {
      if (migration.before === migration.after) continue;
      project.getSourceFileOrThrow(migration.path).replaceWithText(migration.after);
    }
    project.saveSync();
  }
  return { files: migrations, diff };
}

/**
 * Migrates one file's text in memory (for tests, editors and scripts). `fileName` places it (module resolution
 * and types come from the real directory around it, when there is one).
 */
export function migrateText(text: string, fileName = 'server.ts'): FileMigration {
  // One project for every call: the declaration files it reads (the official SDK's, zod's) are parsed once.
  inMemory ??= new Project({ compilerOptions: defaultCompilerOptions() });
  // A path of its own per call (same directory, so modules resolve alike): no stale program state between calls.
  const path = resolve(fileName);
  const file = inMemory.createSourceFile(join(dirname(path), `.codemod-${++calls}-${basename(path)}`), text);
  try {
    return { ...migrateSourceFile(file), path };
  } finally {
    inMemory.removeSourceFile(file);
  }
}

let calls = 0;

let inMemory: Project | undefined;

function defaultCompilerOptions(): ts.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    allowJs: true,
    skipLibCheck: true,
  };
}

function sourceFiles(path: string): string[] {
  if (!existsSync(path)) throw new TypeError(`"path" expected an existing file or directory, got ${path}`);
  if (!statSync(path).isDirectory()) {
    if (!SOURCE.test(path))
      throw new TypeError(`"path" expected a TypeScript or JavaScript file, got ${path}`);
    return [path];
  }
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
      const child = join(dir, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile() && SOURCE.test(entry.name) && !/\.d\.[cm]?ts$/.test(entry.name))
        out.push(child);
    }
  };
  walk(path);
  return out.sort();
}

function nearestTsconfig(from: string): string | undefined {
  let dir = existsSync(from) && statSync(from).isDirectory() ? from : dirname(from);
  for (;;) {
    const candidate = join(dir, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
