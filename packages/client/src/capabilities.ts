import {
  argumentError,
  type ClientCapabilities,
  type InputRequest,
  isPlainObject,
} from '@boomerang/protocol';
import { inputRequestKind } from '@boomerang/protocol/internal';

/** An elicitation mode a client can support: a form it renders, or a URL it opens out of band. */
export type ElicitationMode = 'form' | 'url';

/** What decides the capabilities a client declares: which callbacks exist, and the two narrowing options. */
export interface CapabilityOptions {
  readonly elicitation?: unknown;
  readonly sampling?: unknown;
  readonly roots?: unknown;
  readonly elicitationModes?: readonly ElicitationMode[] | undefined;
  readonly samplingTools?: boolean | undefined;
}

const MODES: readonly ElicitationMode[] = ['form', 'url'];

/**
 * The `clientCapabilities` a client sends in every request's `_meta`, derived from its callbacks (registering a
 * callback is the declaration): `elicitation` → `{ form: {}, url: {} }` narrowed by `elicitationModes`;
 * `sampling` → `{}`, plus `tools: {}` with `samplingTools: true`; `roots` → `{}`. A server must not ask for
 * anything else (it answers `-32021` when it needs more).
 *
 * Throws `TypeError` for a narrowing option without its callback, and `RangeError` for an empty or unknown
 * `elicitationModes` (a client that declares elicitation must support at least one mode).
 */
export function deriveCapabilities(options: CapabilityOptions): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  const { elicitationModes, samplingTools } = options;
  if (elicitationModes !== undefined && options.elicitation === undefined) {
    throw new TypeError('"elicitationModes" expected together with an "elicitation" callback');
  }
  if (samplingTools !== undefined && options.sampling === undefined) {
    throw new TypeError('"samplingTools" expected together with a "sampling" callback');
  }
  if (options.elicitation !== undefined) {
    const modes = elicitationModes ?? MODES;
    if (modes.length === 0 || modes.some((mode) => !MODES.includes(mode))) {
      throw new RangeError(`"elicitationModes" expected a non-empty list of "form" | "url", got [${modes}]`);
    }
    const elicitation: Record<string, Record<string, never>> = {};
    for (const mode of MODES) if (modes.includes(mode)) elicitation[mode] = {};
    capabilities.elicitation = elicitation;
  }
  if (options.sampling !== undefined) capabilities.sampling = samplingTools === true ? { tools: {} } : {};
  if (options.roots !== undefined) capabilities.roots = {};
  return deepFreeze(capabilities);
}

/**
 * The capabilities a client declares: those derived from its callbacks ({@link deriveCapabilities}) merged with
 * those given in `ClientOptions.capabilities` (a manual-loop host answers input requests itself, so it declares
 * them without callbacks). Objects merge member by member, so `elicitation: { url: {} }` added to a form-mode
 * callback declares both modes; anything else in `declared` wins. The result is frozen.
 *
 * Throws `TypeError` when `declared` is not a plain object.
 */
export function mergeCapabilities(
  derived: ClientCapabilities,
  declared: ClientCapabilities | undefined,
): ClientCapabilities {
  if (declared === undefined) return derived;
  if (!isPlainObject(declared)) {
    throw argumentError('capabilities', 'an object', declared);
  }
  return deepFreeze(mergeObjects(derived, declared) as ClientCapabilities);
}

/** `a` and `b` merged member by member (a fresh tree; `b` wins where either side is not an object). */
function mergeObjects(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = structuredClone(a);
  for (const [key, value] of Object.entries(b)) {
    if (value === undefined) continue;
    const current = merged[key];
    merged[key] =
      isPlainObject(current) && isPlainObject(value) ? mergeObjects(current, value) : structuredClone(value);
  }
  return merged;
}

/**
 * Why `capabilities` do not cover one input request, or `undefined` when they do: the client checks every
 * request a server sends before calling a callback, so a server that ignores the declaration (spec S10) gets
 * a clear local error instead of an answer the user never agreed to give. What a request needs is its kind's row
 * of the protocol's table: its capability, and the members its params need that the spec makes a MUST (an
 * elicitation mode, `sampling.tools`; a server's `sampling.context` request is answered anyway).
 */
export function uncoveredInputRequest(
  request: InputRequest | { readonly method: string; readonly params?: unknown },
  capabilities: ClientCapabilities,
): string | undefined {
  const kind = inputRequestKind(request.method);
  if (kind === undefined) return 'it is not an input request method this client knows';
  const { capability } = kind;
  const declared = capabilities[capability.name];
  if (declared === undefined) return `this client has no ${kind.callback} callback`;
  const params = isPlainObject(request.params) ? request.params : NO_PARAMS;
  const problem = capability.unknownMember?.(params);
  if (problem !== undefined) return problem;
  const needs = capability.needs(params);
  for (let i = 0; i < needs.length; i++) {
    const need = needs[i];
    if (need?.must && declared[need.member] === undefined) {
      const name = `${capability.name}.${need.member}`;
      return `this client did not declare ${UNDECLARED[name] ?? name}`;
    }
  }
  return undefined;
}

/** The params of a request that has none. */
const NO_PARAMS: Readonly<Record<string, unknown>> = Object.freeze({});

/** The capability members this client's options declare, named with the option (others: `sampling.context`). */
const UNDECLARED: Readonly<Record<string, string>> = {
  'elicitation.form': 'form-mode elicitation (see elicitationModes)',
  'elicitation.url': 'url-mode elicitation (see elicitationModes)',
  'sampling.tools': 'sampling with tools (see samplingTools)',
};

/** Freezes a small JSON tree: the declared capabilities are shared by every request and must not drift. */
function deepFreeze<T extends object>(value: T): T {
  for (const member of Object.values(value))
    if (typeof member === 'object' && member !== null) deepFreeze(member);
  return Object.freeze(value);
}

/**
 * What this client would have to change to declare `required` (a `-32021`'s `data.requiredCapabilities`), named
 * by its option: `register an "elicitation" callback`, `add "url" to elicitationModes`, `set samplingTools: true`,
 * `declare extensions["x"] in option capabilities`. `declared` is what it sent.
 */
export function remedyFor(required: unknown, declared: ClientCapabilities): string {
  if (!isPlainObject(required)) return 'declare the capabilities the server needs';
  const steps: string[] = [];
  for (const [name, value] of Object.entries(required)) {
    const need = isPlainObject(value) ? value : {};
    switch (name) {
      case 'elicitation':
        if (declared.elicitation === undefined) steps.push('register an "elicitation" callback');
        else
          for (const mode of Object.keys(need)) {
            if (mode === 'form' || mode === 'url') steps.push(`add "${mode}" to elicitationModes`);
          }
        break;
      case 'sampling':
        if (declared.sampling === undefined) steps.push('register a "sampling" callback');
        if (need.tools !== undefined) steps.push('set samplingTools: true');
        if (need.context !== undefined) steps.push('declare sampling.context in option capabilities');
        break;
      case 'roots':
        steps.push('register a "roots" callback');
        break;
      case 'extensions':
        for (const id of Object.keys(need)) {
          steps.push(`declare extensions[${JSON.stringify(id)}] in option capabilities`);
        }
        break;
      default:
        steps.push(`declare "${name}" in option capabilities`);
    }
  }
  return steps.length === 0 ? 'declare the capabilities the server needs' : steps.join(', and ');
}
