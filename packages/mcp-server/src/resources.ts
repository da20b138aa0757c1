import {
  type InputRequiredResult,
  isInputRequired,
  type ReadResourceRequestParams,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from '@boomerang/protocol';
import type { HandlerResult, RequestContext } from '@boomerang/server';
import { checkCompleters, rethrowResolution } from './prompts.js';
import type { Registry } from './registry.js';
import {
  planRegistration,
  type ResolverPlan,
  type ResolverPlanOptions,
  runResolvers,
} from './resolvers/index.js';
import {
  type CheckedHandler,
  checkConfig,
  checkHandler,
  checkName,
  invalidParams,
  pickMeta,
} from './schema.js';
import type { Completer, ResourceConfig, ResourceMetadata } from './types.js';
import { parseUriTemplate, type UriTemplate } from './uri-template.js';

/** A registered static resource. */
export interface ResourceEntry {
  readonly uri: string;
  readonly meta: ResourceConfig;
  readonly handler: CheckedHandler;
}

/** A registered resource template. */
export interface TemplateEntry {
  readonly template: UriTemplate;
  readonly meta: ResourceMetadata;
  readonly complete: Readonly<Record<string, Completer>>;
  readonly plan: ResolverPlan | undefined;
  readonly handler: CheckedHandler;
}

/** The members of a template config that `handle.update()` may change (plus `size` for static resources). */
export const RESOURCE_META_KEYS = [
  'name',
  'title',
  'description',
  'mimeType',
  'annotations',
  'icons',
  '_meta',
] as const;
const META_KEYS = RESOURCE_META_KEYS;
const RESOURCE_KEYS: ReadonlySet<string> = new Set([...META_KEYS, 'size']);
const TEMPLATE_KEYS: ReadonlySet<string> = new Set([...META_KEYS, 'resolve', 'complete']);

/** Checks a static resource registration. */
export function resourceEntry(uri: unknown, config: unknown, handler: unknown): ResourceEntry {
  checkName('resource', uri);
  const owner = `resource '${uri}'`;
  const meta = pickMeta(owner, config, [...META_KEYS, 'size'], RESOURCE_KEYS) as ResourceConfig;
  checkHandler(owner, handler);
  return { uri, meta, handler };
}

/** Checks a template registration: the template parses, completers and resolvers name its variables. */
export function templateEntry(
  uriTemplate: unknown,
  config: unknown,
  handler: unknown,
  plan: ResolverPlanOptions = {},
): TemplateEntry {
  checkName('resource template', uriTemplate);
  const owner = `resource template '${uriTemplate}'`;
  checkConfig(owner, config);
  const meta = pickMeta(owner, config, META_KEYS, TEMPLATE_KEYS) as ResourceMetadata;
  const { resolve, complete } = config;
  checkHandler(owner, handler);
  const template = parseUriTemplate(uriTemplate);
  return {
    template,
    meta,
    complete: checkCompleters(owner, complete, template.variableNames),
    plan: planRegistration(owner, resolve, template.variableNames, plan),
    handler,
  };
}

function withMeta<T extends Record<string, unknown>>(base: T, meta: object): T {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(meta))
    if (key !== 'name' && value !== undefined) out[key] = value;
  return out as T;
}

/** The resource as `resources/list` publishes it (`name` defaults to the URI). */
export function describeResource(entry: ResourceEntry): Resource {
  return withMeta({ uri: entry.uri, name: entry.meta.name ?? entry.uri }, entry.meta);
}

/** The template as `resources/templates/list` publishes it (`name` defaults to the template). */
export function describeTemplate(entry: TemplateEntry): ResourceTemplate {
  const { template } = entry.template;
  return withMeta({ uriTemplate: template, name: entry.meta.name ?? template }, entry.meta);
}

/**
 * Serves `resources/read`: a static resource by exact URI first, then the first template (in registration
 * order) that matches; neither → `-32602 Resource not found` with `data.uri`. A static resource that returns
 * an `InputRequiredResult` is a bug (`-32603`), as is a resolver template that does; a declined or cancelled
 * elicitation consumed unwrapped → `-32602` with the resolver's message.
 */
export async function readResource(
  resources: Registry<ResourceEntry>,
  templates: Registry<TemplateEntry>,
  params: ReadResourceRequestParams,
  ctx: RequestContext,
): Promise<HandlerResult<ReadResourceResult> | InputRequiredResult> {
  const { uri } = params;
  const entry = resources.get(uri);
  if (entry !== undefined) {
    const value = await entry.handler(ctx);
    if (isInputRequired(value)) {
      throw new Error(
        `static resource '${uri}' returned an InputRequiredResult; only resource templates take part in multi-round-trip requests`,
      );
    }
    return value as HandlerResult<ReadResourceResult>;
  }
  for (const template of templates.values()) {
    const vars = template.template.match(uri);
    if (vars === undefined) continue;
    const round = await runResolvers(template.plan, vars, ctx).catch(rethrowResolution);
    if (round.kind === 'input_required') return round.result;
    const value = await template.handler(vars, round.values, ctx);
    if (isInputRequired(value) && template.plan !== undefined) {
      throw new Error(
        `resource template '${template.template.template}' returned an InputRequiredResult but uses resolvers`,
      );
    }
    return value as HandlerResult<ReadResourceResult> | InputRequiredResult;
  }
  throw invalidParams('Resource not found', { uri });
}
