import { expiresAt, type TaskRecord, type TaskStore } from './store.js';

/**
 * A {@link TaskStore} in a `Map`, for tests and examples: nothing survives the process, and nothing is shared
 * with another process. Records are copied in and out (through JSON, as a database would), so a caller never
 * holds the stored object. Use `postgresTaskStore(db)` of `@boomerang/postgres` for anything that must last.
 */
export function memoryTaskStore(): TaskStore {
  const records = new Map<string, string>();
  const read = (taskId: string): TaskRecord | undefined => {
    const text = records.get(taskId);
    return text === undefined ? undefined : (JSON.parse(text) as TaskRecord);
  };
  return {
    async create(record) {
      if (records.has(record.taskId)) throw new Error(`task ${record.taskId} already exists`);
      records.set(record.taskId, JSON.stringify(record));
    },
    async get(taskId) {
      return read(taskId);
    },
    async update(next, expectedVersion) {
      const current = read(next.taskId);
      if (current === undefined || current.version !== expectedVersion) return false;
      records.set(next.taskId, JSON.stringify(next));
      return true;
    },
    async deleteExpired(now) {
      let deleted = 0;
      for (const taskId of [...records.keys()]) {
        const until = expiresAt(read(taskId) as TaskRecord);
        if (until !== null && until <= now) {
          records.delete(taskId);
          deleted++;
        }
      }
      return deleted;
    },
  };
}
