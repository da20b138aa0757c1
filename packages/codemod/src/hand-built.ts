// Hand-written multi-round-trip phases (v2's `inputRequired(...)`, `acceptedContent(...)`,
// `ctx.mcpReq.requestState()`): the builders move to their @boomerang/protocol names, and each handler that does
// this gets one comment pointing at resolvers, which replace the phase code and seal its state.
import { Node, SyntaxKind } from 'ts-morph';
import type { FileContext } from './file-context.js';

const BUILDERS: Readonly<Record<string, string>> = {
  elicit: 'elicitRequest',
  elicitUrl: 'elicitUrlRequest',
  createMessage: 'createMessageRequest',
  listRoots: 'listRootsRequest',
};

const MESSAGE =
  'hand-written multi-round-trip phases: in Boomerang each question is a resolver (elicit, sample, listRoots) listed in "resolve"; the engine asks, seals the answers in the request state and binds them to their questions, so the phase switch and its requestState go. Kept as written meanwhile: inputRequired(...) and the request builders are @boomerang/protocol\'s, ctx.inputResponses and ctx.requestState (a plain string) are on RequestContext.';

/** Rewrites `inputRequired.elicit(...)`-style builders and comments hand-built phases. */
export function convertHandBuiltRounds(context: FileContext): void {
  for (const call of context.file.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    const official = Node.isPropertyAccessExpression(callee)
      ? context.officialName(callee.getExpression())
      : context.officialName(callee);
    if (
      official?.name !== 'inputRequired' &&
      official?.name !== 'acceptedContent' &&
      official?.name !== 'inputResponse'
    ) {
      continue;
    }
    if (context.edits.overlaps(call.getStart(), call.getEnd())) continue;
    const handler = call.getFirstAncestor(
      (node) => Node.isArrowFunction(node) || Node.isFunctionExpression(node),
    );
    context.leave(handler ?? call, 'inputRequired', MESSAGE, 'guides/resolvers.md');
    if (!Node.isPropertyAccessExpression(callee)) continue;
    const builder = BUILDERS[callee.getName()];
    if (builder === undefined) continue;
    context.edits.replace(callee.getStart(), callee.getEnd(), builder);
    context.need('@boomerang/protocol', builder);
  }
  for (const access of context.file.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)) {
    if (access.getName() !== 'requestState' || !Node.isPropertyAccessExpression(access.getExpression()))
      continue;
    const inner = access.getExpression();
    if (!Node.isPropertyAccessExpression(inner) || inner.getName() !== 'mcpReq') continue;
    if (context.edits.overlaps(access.getStart(), access.getEnd())) continue;
    context.leave(
      access,
      'requestState',
      'ctx.mcpReq.requestState() decoded state signed by the official codec; Boomerang seals state itself (ctx.requestState is the plain string you returned). Prefer resolvers.',
      'guides/resolvers.md',
    );
  }
}
