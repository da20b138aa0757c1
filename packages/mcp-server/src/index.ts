// @boomerang/mcp-server: the high-level MCP 2026-07-28 server. Tools, prompts, resources and templates
// registered with any Standard Schema or raw JSON Schema; resolvers that ask the user mid-call; request state sealed by default.

// --- the server

export {
  McpServer,
  type MethodHandle,
  type PromptHandle,
  type ResourceHandle,
  type ResourceTemplateHandle,
  type ToolHandle,
} from './mcp-server.js';
export type {
  ArgsOf,
  CompleteMap,
  Completer,
  McpServerOptions,
  MethodConfig,
  MethodHandler,
  MethodReturn,
  NoResolved,
  PromptConfig,
  PromptInputCheck,
  PromptMetadata,
  PromptResult,
  RegisteredHandle,
  RequestStateSecurity,
  ResourceConfig,
  ResourceMetadata,
  ResourceResult,
  ResourceTemplateConfig,
  StaticResourceHandler,
  StructuredToolResult,
  ToolConfig,
  ToolHandler,
  ToolMetadata,
  ToolResult,
  ToolReturn,
  ToolTasks,
} from './types.js';
export type { TemplateVariables } from './uri-template.js';

// --- resolvers (the engine lives in ./resolvers)

export {
  type AnswerBinding,
  type ElicitOptions,
  type ElicitOutcome,
  type ElicitUrlOutcome,
  elicit,
  elicitResult,
  elicitUrl,
  elicitUrlResult,
  type ListRootsAnswer,
  listRoots,
  type Question,
  type RefusalAction,
  ResolutionError,
  type ResolvedValues,
  type ResolveMapFor,
  type Resolver,
  ResolverGraphError,
  type ResolverOf,
  type ResolverSpec,
  type ResolverUses,
  resolver,
  type SampleAnswer,
  sample,
} from './resolvers/index.js';

// --- schemas: any Standard Schema (zod 4, valibot, arktype…) or a raw JSON Schema

export type {
  AnyObjectSchema,
  AnySchema,
  FormSchema,
  FormValues,
  InputOf,
  JsonObjectSchema,
  JsonSchemaObject,
  JsonSchemaValue,
  OutputOf,
} from './schema-types.js';
export { type WithJsonSchema, withJsonSchema } from './with-json-schema.js';

// --- skills (SEP-2640, io.modelcontextprotocol/skills); folders on disk: @boomerang/mcp-server/node

export {
  memorySkillFiles,
  type SkillCatalog,
  type SkillCatalogOptions,
  skillCatalog,
} from './skills.js';
export {
  SkillCatalogError,
  type SkillFileEntry,
  type SkillFiles,
  type SkillLimits,
  type SkillProblem,
} from './skills-build.js';

// --- from @boomerang/server, so handlers need one import

/** How a tool call becomes a task (declared by @boomerang/server, shared with @boomerang/tasks). */
export type {
  RateLimitOptions,
  RateLimitStore,
  RequestContext,
  ServerMiddleware,
  ServerMiddlewareContext,
  TaskPolicy,
  TaskStart,
  TaskSupport,
} from '@boomerang/server';
/** Per-principal request limits (a middleware for `use`). */
export { memoryRateLimitStore, rateLimit } from '@boomerang/server';
