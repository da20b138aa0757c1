import type { CompleteRequestParams, CompleteResult } from '@boomerang/protocol';
import type { HandlerResult, RequestContext } from '@boomerang/server';
import type { PromptEntry } from './prompts.js';
import type { Registry } from './registry.js';
import type { TemplateEntry } from './resources.js';
import { invalidParams } from './schema.js';
import type { Completer } from './types.js';

/** The spec's cap on `completion.values`. */
const MAX_VALUES = 100;

/**
 * Serves `completion/complete` for prompt arguments (`ref/prompt`, by name) and template variables
 * (`ref/resource`, by the exact URI template). An unknown prompt or template is `-32602`; an argument without a
 * completer gets no values. At most 100 values are sent, with `total` and `hasMore`.
 */
export async function complete(
  prompts: Registry<PromptEntry>,
  templates: Registry<TemplateEntry>,
  params: CompleteRequestParams,
  ctx: RequestContext,
): Promise<HandlerResult<CompleteResult>> {
  const { ref, argument } = params;
  let completer: Completer | undefined;
  if (ref.type === 'ref/prompt') {
    const prompt = prompts.get(ref.name);
    if (prompt === undefined) throw invalidParams(`Unknown prompt: ${ref.name}`);
    completer = prompt.complete[argument.name];
  } else {
    const template = templates.values().find((t) => t.template.template === ref.uri);
    if (template === undefined) throw invalidParams(`Unknown resource template: ${ref.uri}`);
    completer = template.complete[argument.name];
  }
  if (completer === undefined) return { completion: { values: [], total: 0, hasMore: false } };
  const values: unknown = await completer(
    argument.value,
    { arguments: params.context?.arguments ?? {} },
    ctx,
  );
  if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) {
    throw new Error(`the completer for '${argument.name}' returned something other than an array of strings`);
  }
  return {
    completion: {
      values: values.slice(0, MAX_VALUES) as string[],
      total: values.length,
      hasMore: values.length > MAX_VALUES,
    },
  };
}
