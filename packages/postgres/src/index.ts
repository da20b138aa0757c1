// @boomerang/postgres: Boomerang's SQL stores on one schema for PGlite (embedded, file-backed) and PostgreSQL
// (through `pg`), with versioned migrations applied on start, and the notification bus on LISTEN/NOTIFY.
export type { PostgresDb } from './db.js';
export { MIGRATIONS, type MigrateOptions, type Migration, migrate } from './migrations.js';
export {
  NOTIFY_INLINE_BYTES,
  type PostgresNotificationsOptions,
  postgresNotifications,
} from './notifications.js';
export { postgresTaskStore } from './task-store.js';
