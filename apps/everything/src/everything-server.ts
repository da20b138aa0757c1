import { McpServer, type McpServerOptions, type SkillCatalog } from '@boomerang/mcp-server';
import { loadSkills } from '@boomerang/mcp-server/node';
import { createTasks, type TaskStore, type Tasks } from '@boomerang/tasks';
import { registerPrompts, registerResources } from './fixtures/content.js';
import { registerLegacyEraTools } from './fixtures/legacy-era.js';
import { registerMrtr } from './fixtures/mrtr.js';
import { registerTasks } from './fixtures/tasks.js';
import { registerTools, registerTriggers } from './fixtures/tools.js';

/**
 * The tasks runtime of the task fixtures (io.modelcontextprotocol/tasks) on `store`: `openTaskStore()` of
 * `@boomerang/demo-kit/task-store` (PGlite on disk) in the program, `memoryTaskStore()` in tests. Polling every 200 ms keeps the conformance runs short.
 */
export function everythingTasks(store: TaskStore): Tasks {
  return createTasks({ store, pollIntervalMs: 200 });
}

/**
 * The skills of apps/everything/skills (SEP-2640): `pdf-processing` and `acme/code-review`, each with a subfolder.
 * The URL is the same from src/ (tests) and from the bundled dist/server.js.
 */
export function everythingSkills(): Promise<SkillCatalog> {
  return loadSkills(new URL('../skills/', import.meta.url));
}

/**
 * Every fixture the conformance suite's server scenarios use (at 2026-07-28 and at 2025-11-25), on one `McpServer` (request state sealed under
 * a per-process key, the default), its task fixtures run by `tasks` (see {@link everythingTasks}), plus `skills`. `logger`
 * receives what never reaches the wire (default: stderr). Its HTTP endpoint needs no `tools` option:
 * `createHttpHandler(mcp)` / `listen(mcp)` read the `x-mcp-header` declarations of `Mcp-Param-*` headers through
 * `mcp.toolSchema(name)`.
 */
export function createEverythingServer(options: {
  readonly tasks: Tasks;
  readonly logger?: McpServerOptions['logger'];
  /** The skills to serve (see {@link everythingSkills}); none without. */
  readonly skills?: SkillCatalog;
}): McpServer {
  const { tasks, skills } = options;
  const mcp = new McpServer(
    { name: 'boomerang-everything', version: '0.0.0' },
    // `logging`: tools log through `ctx.log` (per request's logLevel in 2026-07-28, `logging/setLevel` in 2025-11-25).
    {
      capabilities: { logging: {} },
      tasks,
      ...(skills === undefined ? {} : { extensions: [skills.extension] }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    },
  );
  skills?.register(mcp);
  registerTools(mcp);
  registerMrtr(mcp);
  registerTasks(mcp);
  registerLegacyEraTools(mcp);
  const simplePrompt = registerPrompts(mcp);
  registerResources(mcp);
  registerTriggers(mcp, simplePrompt);
  return mcp;
}
