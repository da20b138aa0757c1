import {
  CallToolRequestParamsSchema,
  CallToolResultSchema,
  CompleteRequestParamsSchema,
  CompleteResultSchema,
  DiscoverResultSchema,
  GetPromptRequestParamsSchema,
  GetPromptResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListToolsResultSchema,
  PaginatedRequestParamsSchema,
  ReadResourceRequestParamsSchema,
  ReadResourceResultSchema,
  RequestParamsSchema,
  SubscriptionsListenRequestParamsSchema,
  SubscriptionsListenResultSchema,
} from '@boomerang/protocol';
import type { ServerHandlers } from './types.js';

/** One problem found by a schema: where, and what (zod's issue shape, read structurally). */
export interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** The part of a zod schema the server uses: a non-throwing parse. */
export interface Validator {
  safeParse(
    value: unknown,
  ): { success: true } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

/** How the server serves one method. */
export interface MethodSpec {
  /** The handler option that serves it; `undefined` for `server/discover` and `subscriptions/listen` (built in). */
  readonly handler: keyof ServerHandlers | undefined;
  /** Validates the request's `params` (including `_meta`). */
  readonly params: Validator;
  /** Validates the complete result the server is about to send. */
  readonly result: Validator;
  /** `cursor` / `nextCursor` are wrapped and unwrapped (see cursor.ts). */
  readonly paginated: boolean;
  /** Complete results carry `ttlMs` / `cacheScope`. */
  readonly cacheable: boolean;
  /** May answer `input_required`; `requestState` is opened and sealed here. */
  readonly inputRequired: boolean;
}

const spec = (
  handler: keyof ServerHandlers | undefined,
  params: Validator,
  result: Validator,
  flags: { paginated?: boolean; cacheable?: boolean; inputRequired?: boolean } = {},
): MethodSpec => ({
  handler,
  params,
  result,
  paginated: flags.paginated ?? false,
  cacheable: flags.cacheable ?? false,
  inputRequired: flags.inputRequired ?? false,
});

const list = { paginated: true, cacheable: true };

/** Every method this server answers. Anything else is `-32601`. */
export const METHODS: ReadonlyMap<string, MethodSpec> = new Map([
  ['server/discover', spec(undefined, RequestParamsSchema, DiscoverResultSchema, { cacheable: true })],
  ['tools/list', spec('onListTools', PaginatedRequestParamsSchema, ListToolsResultSchema, list)],
  [
    'tools/call',
    spec('onCallTool', CallToolRequestParamsSchema, CallToolResultSchema, { inputRequired: true }),
  ],
  ['prompts/list', spec('onListPrompts', PaginatedRequestParamsSchema, ListPromptsResultSchema, list)],
  [
    'prompts/get',
    spec('onGetPrompt', GetPromptRequestParamsSchema, GetPromptResultSchema, { inputRequired: true }),
  ],
  ['resources/list', spec('onListResources', PaginatedRequestParamsSchema, ListResourcesResultSchema, list)],
  [
    'resources/templates/list',
    spec('onListResourceTemplates', PaginatedRequestParamsSchema, ListResourceTemplatesResultSchema, list),
  ],
  [
    'resources/read',
    spec('onReadResource', ReadResourceRequestParamsSchema, ReadResourceResultSchema, {
      cacheable: true,
      inputRequired: true,
    }),
  ],
  ['completion/complete', spec('onComplete', CompleteRequestParamsSchema, CompleteResultSchema)],
  // Built in; served only when the server has a notification source (see listen.ts).
  [
    'subscriptions/listen',
    spec(undefined, SubscriptionsListenRequestParamsSchema, SubscriptionsListenResultSchema),
  ],
]);

/** The handler option names, for checking `new Server(info, options)`. */
export const HANDLER_NAMES: readonly (keyof ServerHandlers)[] = [
  'onListTools',
  'onCallTool',
  'onListPrompts',
  'onGetPrompt',
  'onListResources',
  'onListResourceTemplates',
  'onReadResource',
  'onComplete',
];

/**
 * A short, client-safe description of schema issues: `params.name: Invalid input: expected string`. Paths are
 * written as `a.b[0]["io.modelcontextprotocol/logLevel"]`; at most three issues are named.
 */
export function describeIssues(issues: readonly SchemaIssue[], root = 'params'): string {
  const parts = issues.slice(0, 3).map((issue) => `${formatPath(root, issue.path)}: ${issue.message}`);
  if (issues.length > 3) parts.push(`and ${issues.length - 3} more`);
  return parts.join('; ');
}

function formatPath(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) out += `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}
