import type { ClientCapabilities, InputRequests, ServerCapabilities } from '@boomerang/protocol';
import { isPlainObject as isObject } from '@boomerang/protocol';
import type { ServerHandlers } from './types.js';

type JsonObject = Record<string, unknown>;

/** Deep-merges plain objects (`extra` wins on leaves); arrays and other values are replaced, never merged. */
export function mergeCapabilities<T extends object>(base: T, extra: object | undefined): T {
  if (extra === undefined) return base;
  const out: JsonObject = { ...(base as JsonObject) };
  for (const [key, value] of Object.entries(extra)) {
    const current = out[key];
    out[key] = isObject(current) && isObject(value) ? mergeCapabilities(current, value) : value;
  }
  return out as T;
}

/**
 * The server capabilities `server/discover` advertises: one entry per feature a handler was given
 * (`tools`, `prompts`, `resources`, `completions`), deep-merged with the author's `extra` capabilities.
 */
export function serverCapabilities(handlers: ServerHandlers, extra?: ServerCapabilities): ServerCapabilities {
  const caps: ServerCapabilities = {};
  if (handlers.onListTools || handlers.onCallTool) caps.tools = {};
  if (handlers.onListPrompts || handlers.onGetPrompt) caps.prompts = {};
  if (handlers.onListResources || handlers.onListResourceTemplates || handlers.onReadResource) {
    caps.resources = {};
  }
  if (handlers.onComplete) caps.completions = {};
  return mergeCapabilities(caps, extra);
}

/**
 * The client capabilities this request lacks for `inputRequests` (spec: a server MUST NOT send an input request
 * the client did not declare in *this* request), as a `ClientCapabilities` object for
 * `-32021`'s `data.requiredCapabilities`, or `undefined` when everything is declared:
 *
 * - form elicitation (`mode` absent or `"form"`) needs `elicitation` with `form`, or with neither mode (an empty
 *   `elicitation: {}` means form only) → `{ elicitation: { form: {} } }`;
 * - URL elicitation needs `elicitation.url` → `{ elicitation: { url: {} } }`;
 * - sampling needs `sampling` → `{ sampling: {} }`; with `tools` or `toolChoice` it needs `sampling.tools`, and
 *   with the deprecated `includeContext` `"thisServer"`/`"allServers"` it needs `sampling.context`;
 * - `roots/list` needs `roots` → `{ roots: {} }`.
 */
export function missingClientCapabilities(
  inputRequests: InputRequests,
  declared: ClientCapabilities,
): ClientCapabilities | undefined {
  let missing: JsonObject | undefined;
  const need = (required: JsonObject) => {
    missing = mergeCapabilities(missing ?? {}, required);
  };
  const elicitation = isObject(declared.elicitation) ? declared.elicitation : undefined;
  const sampling = isObject(declared.sampling) ? declared.sampling : undefined;
  for (const request of Object.values(inputRequests)) {
    const params: JsonObject = isObject(request.params) ? request.params : {};
    switch (request.method) {
      case 'elicitation/create':
        if (params.mode === 'url') {
          if (!isObject(elicitation?.url)) need({ elicitation: { url: {} } });
        } else if (!elicitation || (!isObject(elicitation.form) && isObject(elicitation.url))) {
          need({ elicitation: { form: {} } });
        }
        break;
      case 'sampling/createMessage':
        if (!sampling) need({ sampling: {} });
        if ((params.tools !== undefined || params.toolChoice !== undefined) && !isObject(sampling?.tools)) {
          need({ sampling: { tools: {} } });
        }
        if (
          (params.includeContext === 'thisServer' || params.includeContext === 'allServers') &&
          !isObject(sampling?.context)
        ) {
          need({ sampling: { context: {} } });
        }
        break;
      case 'roots/list':
        if (!isObject(declared.roots)) need({ roots: {} });
        break;
    }
  }
  return missing as ClientCapabilities | undefined;
}

/** `{ elicitation: { url: {} }, roots: {} }` → `"elicitation.url, roots"`: for the `-32021` message. */
export function describeCapabilities(caps: object, prefix = ''): string {
  const names: string[] = [];
  for (const [key, value] of Object.entries(caps)) {
    const inner = isObject(value) ? describeCapabilities(value, `${prefix}${key}.`) : '';
    names.push(inner === '' ? `${prefix}${key}` : inner);
  }
  return names.join(', ');
}
