// The `boomerang-codemod` command: arguments in, a diff or the written files and the report out.
import type { Note } from './file-context.js';
import { migrate } from './migrate.js';

/** Where the command writes. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const USAGE = `usage: boomerang-codemod [--dry-run] [--json] [--tsconfig <file>] <path>...

Migrates MCP servers written on the official TypeScript SDK (@modelcontextprotocol/sdk v1,
@modelcontextprotocol/server v2) to Boomerang. Paths are files or directories (searched recursively).
  --dry-run          print a unified diff, write nothing
  --json             print the report as JSON (with --dry-run: the diff is in it)
  --tsconfig <file>  the tsconfig.json that types the files (default: the nearest one)
Every construct left for you is listed, and marked in the code with a "boomerang-codemod:" comment.`;

/** Runs the command; returns the exit code (0 done, 1 failed, 2 bad usage). */
export function runCli(argv: readonly string[], io: CliIo): number {
  const paths: string[] = [];
  let dryRun = false;
  let json = false;
  let tsconfig: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--dry-run' || arg === '-n') dryRun = true;
    else if (arg === '--json') json = true;
    else if (arg === '--tsconfig') tsconfig = argv[++i];
    else if (arg === '--help' || arg === '-h') {
      io.stdout(`${USAGE}\n`);
      return 0;
    } else if (arg.startsWith('-')) {
      io.stderr(`unknown option ${arg}\n${USAGE}\n`);
      return 2;
    } else paths.push(arg);
  }
  if (paths.length === 0 || (tsconfig === undefined && argv.includes('--tsconfig'))) {
    io.stderr(`${USAGE}\n`);
    return 2;
  }
  let result: ReturnType<typeof migrate>;
  try {
    result = migrate(paths, { write: !dryRun, tsconfig });
  } catch (error) {
    io.stderr(`boomerang-codemod: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  if (json) {
    const files = result.files.map(({ path, notes, before, after }) => ({
      path,
      changed: before !== after,
      notes,
    }));
    io.stdout(`${JSON.stringify(dryRun ? { files, diff: result.diff } : { files }, null, 2)}\n`);
    return 0;
  }
  if (dryRun) io.stdout(result.diff);
  io.stderr(report(result.files, dryRun));
  return 0;
}

/** The human report: per file, what is left for you, then counts. */
export function report(
  files: ReadonlyArray<{ path: string; notes: readonly Note[]; before: string; after: string }>,
  dryRun: boolean,
): string {
  let out = '';
  let manual = 0;
  let rewritten = 0;
  for (const file of files) {
    const left = file.notes.filter((n) => n.kind === 'manual');
    manual += left.length;
    rewritten += file.notes.length - left.length;
    out += `${file.path}: ${file.before === file.after ? 'unchanged' : dryRun ? 'would change' : 'migrated'}, ${left.length} left for you\n`;
    for (const note of left) out += `  ${note.line}:${note.column}  ${note.construct}  ${note.message}\n`;
  }
  return `${out}${files.length} file(s), ${rewritten} construct(s) rewritten, ${manual} left for you${dryRun ? ' (dry run: nothing written)' : ''}\n`;
}
