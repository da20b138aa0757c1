import type { SchemaIssue } from '@boomerang/protocol';
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
  safeParse,
} from '@boomerang/protocol/schemas';
import type { ServerHandlers } from './types.js';

/** The part of a zod schema the server uses for built-in methods: a non-throwing parse (see `safeParse`). */
export interface Validator {
  safeParse(
    value: unknown,
  ): { success: true } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

/** What a method's results must be (built-in methods and custom ones alike). */
export interface ResultSpec {
  /** `cursor` / `nextCursor` are wrapped and unwrapped (see cursor.ts). */
  readonly paginated: boolean;
  /** Complete results carry `ttlMs` / `cacheScope`. */
  readonly cacheable: boolean;
  /** May answer `input_required`; `requestState` is opened and sealed here. */
  readonly inputRequired: boolean;
  /** The issues of a complete result, or `undefined` when it is valid (asynchronous for async schemas). */
  checkResult(
    result: Record<string, unknown>,
  ): readonly SchemaIssue[] | undefined | Promise<readonly SchemaIssue[] | undefined>;
}

/** The capability a built-in method belongs to: without it in the capabilities in force, `-32601`. */
export type Feature = 'tools' | 'prompts' | 'resources' | 'completions';

/** How the server serves one built-in method. */
export interface MethodSpec extends ResultSpec {
  /** The handler option that serves it; `undefined` for `server/discover` and `subscriptions/listen` (built in). */
  readonly handler: keyof ServerHandlers | undefined;
  /** The capability the method needs; `undefined` for the two built-ins. */
  readonly feature: Feature | undefined;
  /** Validates the request's `params` (including `_meta`). */
  readonly params: Validator;
}

const spec = (
  handler: keyof ServerHandlers | undefined,
  params: Validator,
  result: Validator,
  flags: { paginated?: boolean; cacheable?: boolean; inputRequired?: boolean } = {},
): MethodSpec => ({
  handler,
  feature: handler === undefined ? undefined : FEATURES[handler],
  params,
  checkResult: (value) => {
    const check = safeParse(result, value);
    return check.success ? undefined : check.error.issues;
  },
  paginated: flags.paginated ?? false,
  cacheable: flags.cacheable ?? false,
  inputRequired: flags.inputRequired ?? false,
});

const FEATURES: Record<keyof ServerHandlers, Feature> = {
  onListTools: 'tools',
  onCallTool: 'tools',
  onListPrompts: 'prompts',
  onGetPrompt: 'prompts',
  onListResources: 'resources',
  onListResourceTemplates: 'resources',
  onReadResource: 'resources',
  onComplete: 'completions',
};

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
export const HANDLER_NAMES = Object.keys(FEATURES) as readonly (keyof ServerHandlers)[];

/**
 * Names a custom method cannot take: the built-in methods of both revisions, and every notification
 * (`notifications/…`, which are never requests).
 */
export function isReservedMethod(name: string): boolean {
  return (
    METHODS.has(name) ||
    name === 'initialize' ||
    name === 'ping' ||
    name === 'logging/setLevel' ||
    name === 'resources/subscribe' ||
    name === 'resources/unsubscribe' ||
    name.startsWith('notifications/')
  );
}
