// The resolver engine of @boomerang/mcp-server: dependencies of tools, prompts and resource templates that may
// ask the client (elicitation, sampling, roots) through multi-round-trip requests. The McpServer core plans a
// registration's `resolve` map once (planResolvers) and runs one round per request (runResolvers).

// --- errors
export { type RefusalAction, ResolutionError, ResolverGraphError } from './errors.js';
// --- the engine (used by the McpServer core)
export {
  type AnswerBinding,
  DEFAULT_MAX_STATE_BYTES,
  planRegistration,
  planResolvers,
  type ResolverPlan,
  type ResolverPlanOptions,
  withoutResolved,
} from './plan.js';
// --- questions
export {
  type ElicitOptions,
  elicit,
  elicitResult,
  elicitUrl,
  elicitUrlResult,
  listRoots,
  sample,
} from './questions.js';
// --- building resolvers
export { isResolver, resolver } from './resolver.js';
export { type ResolverRoundResult, runResolvers } from './run.js';
// --- types
export type {
  AnyResolver,
  ElicitOutcome,
  ElicitUrlOutcome,
  ListRootsAnswer,
  NeedsOf,
  Question,
  QuestionKind,
  ResolvedValues,
  ResolveMapFor,
  Resolver,
  ResolverFn,
  ResolverOf,
  ResolverSpec,
  ResolverUses,
  SampleAnswer,
  ValueOf,
} from './types.js';
