// The two errors of the resolver engine: a bad resolver graph (at registration) and an answer the user refused
// (at run time).

/**
 * A `resolve` map that cannot work, found when the tool, prompt or template is registered: a member that is
 * not a resolver, an argument the registration does not have, a cycle through `uses`, a resolved name that
 * collides with an input property. The message names the registration, the resolver and the culprit, e.g.
 * `tool 'order_book': resolver 'backorder' names unknown argument 'isbn'`.
 */
export class ResolverGraphError extends Error {
  override readonly name = 'ResolverGraphError';
}

/** How the user refused an elicitation. */
export type RefusalAction = 'decline' | 'cancel';

/**
 * A resolver's elicitation was declined or cancelled and its consumer wanted the accepted content (it asked
 * with `elicit`/`elicitUrl`, not `elicitResult`/`elicitUrlResult`). `McpServer` turns it into an `isError` result
 * the model can read on tools, `Resolver for 'backorder' could not resolve: elicitation was declined`, and into
 * `-32602` with the same message on prompts and templates (which have no `isError` result).
 */
export class ResolutionError extends Error {
  override readonly name = 'ResolutionError';
  /** The resolver that asked, by its name in the `resolve` map (nested ones as `parent.child`). */
  readonly resolver: string;
  /** What the user did. */
  readonly action: RefusalAction;

  constructor(resolver: string, action: RefusalAction) {
    super(
      `Resolver for '${resolver}' could not resolve: elicitation was ${action === 'decline' ? 'declined' : 'cancelled'}`,
    );
    this.resolver = resolver;
    this.action = action;
  }
}
