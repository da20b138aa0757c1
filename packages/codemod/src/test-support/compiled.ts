// Test support: a migrated server written beside the package's node_modules (so it resolves @boomerang/* and zod
// as a user's project would), typechecked under strict TypeScript and run as a real stdio child process that the
// Boomerang client calls.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@boomerang/client';
import type { ElicitResult } from '@boomerang/protocol';
import { StdioClientTransport } from '@boomerang/transport-stdio';
import { build } from 'esbuild';
import { Project, ts } from 'ts-morph';

const here = dirname(fileURLToPath(import.meta.url));
const cache = join(here, '../../node_modules/.cache');

/** A temporary directory inside the package's node_modules, removed by `dispose`. */
export function workDir(): { dir: string; dispose(): void } {
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'codemod-'));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The errors strict TypeScript reports for `files` (name → text), as `file:line message` strings. */
export function typeErrors(dir: string, files: Record<string, string>): string[] {
  const project = new Project({
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      skipLibCheck: true,
      allowJs: true,
      checkJs: true,
      noEmit: true,
      types: ['node'],
      customConditions: ['@boomerang/source'],
    },
  });
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
    project.addSourceFileAtPath(join(dir, name));
  }
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
  return project
    .getPreEmitDiagnostics()
    .filter((d) => d.getSourceFile()?.getFilePath().startsWith(dir))
    .map((d) => {
      const message = ts.flattenDiagnosticMessageText(d.compilerObject.messageText, '\n');
      return `${d.getSourceFile()?.getBaseName()}:${d.getLineNumber()} ${message}`;
    });
}

/**
 * Compiles a migrated TypeScript server into one JavaScript file in `dir` (the workspace packages from their
 * sources, as the tests read them everywhere; `external` packages stay imports); returns its path.
 */
export async function emit(
  dir: string,
  name: string,
  text: string,
  external: string[] = [],
): Promise<string> {
  const source = join(dir, name);
  writeFileSync(source, text);
  const path = join(dir, name.replace(/\.ts$/, '.bundle.js'));
  await build({
    entryPoints: [source],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@boomerang/source'],
    external,
    outfile: path,
    logLevel: 'error',
  });
  return path;
}

/** A Boomerang client connected over stdio to `node <file>`, answering every form with `answer`. */
export async function connectTo(
  file: string,
  answer: (message: string) => ElicitResult,
): Promise<{ client: Client; rounds: string[] }> {
  const rounds: string[] = [];
  const client = new Client(
    { name: 'codemod-smoke', version: '1.0.0' },
    {
      elicitation: async (params) => {
        rounds.push(params.message);
        return answer(params.message);
      },
    },
  );
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [file], stderr: 'pipe' }));
  return { client, rounds };
}
