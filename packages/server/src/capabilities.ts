import type { ClientCapabilities, InputRequests, ServerCapabilities } from '@boomerang/protocol';
import { isPlainObject as isObject } from '@boomerang/protocol';
import { type InputRequestCapability, inputRequestKind } from '@boomerang/protocol/internal';
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
 * `-32021`'s `data.requiredCapabilities`, or `undefined` when everything is declared. What each request needs is
 * its kind's row of the protocol's table (every member its params need, MUST or SHOULD alike: this server never
 * sends what the client did not declare):
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
  for (const request of Object.values(inputRequests)) {
    const kind = inputRequestKind(request.method);
    if (kind === undefined) continue;
    const { capability } = kind;
    const settings = declared[capability.name];
    const held = isObject(settings) ? settings : undefined;
    const needs = capability.needs(isObject(request.params) ? request.params : NO_PARAMS);
    if (held === undefined && needs.length === 0) {
      missing = mergeCapabilities(missing ?? {}, { [capability.name]: {} });
    }
    for (let i = 0; i < needs.length; i++) {
      const member = needs[i]?.member;
      if (member !== undefined && !covers(held, member, capability)) {
        missing = mergeCapabilities(missing ?? {}, { [capability.name]: { [member]: {} } });
      }
    }
  }
  return missing;
}

/** The params of a request that has none. */
const NO_PARAMS: JsonObject = Object.freeze({});

/**
 * Whether a declared capability's settings (`undefined` when not declared) hold `member`: as an object, or as
 * the member an empty declaration stands for (`elicitation: {}` is form mode).
 */
function covers(held: JsonObject | undefined, member: string, capability: InputRequestCapability): boolean {
  if (held === undefined) return false;
  if (isObject(held[member])) return true;
  if (member !== capability.implied) return false;
  const { members } = capability;
  for (let i = 0; i < members.length; i++) {
    const other = members[i];
    if (other !== undefined && isObject(held[other])) return false;
  }
  return true;
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
