// @boomerang/codemod: migrates MCP servers from the official TypeScript SDK (v1 and v2) to Boomerang.

export { type CliIo, report, runCli } from './cli-main.js';
// --- its report
export type { Note } from './file-context.js';
export { type MigrateOptions, type MigrationResult, migrate, migrateText } from './migrate.js';
// --- the codemod
export type { FileMigration } from './migrate-file.js';
