// The one place the McpServer core imports the resolver engine from (src/resolvers, its own module). How the core
// uses it:
// - `planResolvers(owner, resolve, inputKeys, { maxStateBytes })` once per registration (`resolving.ts`):
//   `owner` is `tool 'x'`, `prompt 'x'` or `resource template 'x://{id}'`; `inputKeys` are the zod input's keys
//   (a template's variable names). An empty `resolve` map counts as none.
// - `runResolvers(plan, { args, ctx, inputResponses, state })` per request, with the validated arguments minus
//   every resolved name (a template's matched variables) and the state the low-level server opened; on a
//   2025-11-25 session also `ask` (`ctx.ask`), which sends each question as a server→client request mid-call.
// - What it throws: an `McpError` goes out as is; a `ResolutionError` becomes an `isError` result (tools) or
//   `-32602` (prompts, templates); anything else, the state cap's `RangeError` included, an `isError` result
//   (tools, logged) or `-32603` (prompts, templates).
export {
  type AnyResolver,
  DEFAULT_MAX_STATE_BYTES,
  type ElicitOutcome,
  type ElicitUrlOutcome,
  elicit,
  elicitResult,
  elicitUrl,
  elicitUrlResult,
  InvalidSignatureError,
  type ListRootsAnswer,
  listRoots,
  planResolvers,
  type Question,
  type RefusalAction,
  ResolutionError,
  type ResolvedValues,
  type ResolveMapFor,
  type Resolver,
  type ResolverOf,
  type ResolverPlan,
  type ResolverSpec,
  type ResolverUses,
  resolver,
  runResolvers,
  type SampleAnswer,
  sample,
} from './resolvers/index.js';
