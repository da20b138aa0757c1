// What a handler conversion knows about its registration, and the comment left for a question the codemod could
// not turn into a resolver (shared by the handler, resolver and server rules).
import type { ArrowFunction, FunctionExpression, Node } from 'ts-morph';

/** Which official callback shape the handler has. */
export type HandlerKind = 'args' | 'no-args' | 'static' | 'template';

/** A handler to convert, and what the conversion needs to know about its registration. */
export interface HandlerPlan {
  readonly fn: ArrowFunction | FunctionExpression;
  readonly kind: HandlerKind;
  /** The statement that registers it: resolvers are declared right before it. */
  readonly registration: Node;
  /** `tool 'name'`, `prompt 'name'`, … for names and messages. */
  readonly owner: string;
  /** A static resource's URI expression, or a template's template string (for `uri` when the handler reads it). */
  readonly uri?: string | undefined;
}

/** The comment for a server→client request the codemod could not turn into a resolver. */
export function askMessage(what: string): string {
  return `${what} is a server→client request, which 2026-07-28 does not have: ask through a resolver instead (resolver(...) returning elicit(message, schema), sample(params) or listRoots(), listed in the registration's "resolve"), so the answer is sealed in the request state and bound to its question.`;
}
