// One file's migration: every rule records edits and notes against the original syntax tree, then the edits are
// applied at once.
import type { SourceFile } from 'ts-morph';
import { FileContext, type Note } from './file-context.js';
import { convertHandBuiltRounds } from './hand-built.js';
import { convertImports } from './imports.js';
import { convertRegistration, findRegistrations } from './registrations.js';
import { convertContextTypes, convertServerOptions, reportServerMembers } from './server.js';
import { convertTransports } from './transports.js';

/** The outcome of migrating one file. */
export interface FileMigration {
  /** The file's path. */
  readonly path: string;
  /** Its text before the migration. */
  readonly before: string;
  /** Its text after the migration (equal to `before` when nothing changed). */
  readonly after: string;
  /** What was rewritten, and what is left for you (each `manual` note also has a comment in the code). */
  readonly notes: readonly Note[];
}

/** Migrates one parsed file (left unchanged, with no notes, when it imports nothing from the official SDK). */
export function migrateSourceFile(file: SourceFile): FileMigration {
  const before = file.getFullText();
  const context = new FileContext(file);
  if (!context.isOfficial) return { path: file.getFilePath(), before, after: before, notes: [] };
  try {
    return {
      path: file.getFilePath(),
      before,
      after: migrateOfficial(context, before),
      notes: sorted(context.notes),
    };
  } catch (error) {
    // A file the rules cannot agree on stays as it was, and says so; the other files still migrate.
    const reason = error instanceof Error ? error.message : String(error);
    const note: Note = {
      line: 1,
      column: 1,
      kind: 'manual',
      construct: 'file',
      message: `not migrated: ${reason}`,
    };
    return { path: file.getFilePath(), before, after: before, notes: [note] };
  }
}

function migrateOfficial(context: FileContext, before: string): string {
  for (const call of findRegistrations(context)) convertRegistration(context, call);
  convertServerOptions(context);
  convertTransports(context);
  convertHandBuiltRounds(context);
  convertContextTypes(context);
  reportServerMembers(context);
  convertImports(context);
  return context.edits.apply(before);
}

function sorted(notes: readonly Note[]): Note[] {
  return [...notes].sort((a, b) => a.line - b.line || a.column - b.column);
}
