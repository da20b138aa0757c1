// `new McpServer(info, options)`: the options Boomerang has keep their place, the others go (and are reported);
// methods of the official McpServer that Boomerang's does not have are reported where they are called.
import { Node, SyntaxKind } from 'ts-morph';
import type { FileContext } from './file-context.js';
import { askMessage } from './plan.js';
import { isOfficialMcpServer } from './registrations.js';

const KEPT_OPTIONS = new Set(['instructions', 'capabilities']);
/** Members of Boomerang's McpServer a migrated program may keep calling. */
const BOOMERANG_MEMBERS = new Set([
  'tool',
  'prompt',
  'resource',
  'resourceTemplate',
  'connect',
  'close',
  'use',
  'method',
  'resourceUpdated',
]);
const RENAMED = new Set(['registerTool', 'registerPrompt', 'registerResource']);

/** Rewrites the constructor options of every official `new McpServer(...)`. */
export function convertServerOptions(context: FileContext): void {
  for (const created of context.file.getDescendantsOfKind(SyntaxKind.NewExpression)) {
    if (context.officialName(created.getExpression())?.name !== 'McpServer') continue;
    const [, options] = created.getArguments();
    if (options === undefined) continue;
    if (!Node.isObjectLiteralExpression(options)) {
      context.leave(
        options,
        'McpServer',
        'the McpServer options are not an object literal; Boomerang takes instructions, capabilities, requestStateSecurity, … (see its README).',
      );
      continue;
    }
    for (const property of options.getProperties()) {
      const key =
        Node.isPropertyAssignment(property) || Node.isShorthandPropertyAssignment(property)
          ? property.getName()
          : undefined;
      if (key !== undefined && KEPT_OPTIONS.has(key)) continue;
      const comma = property.getNextSiblingIfKind(SyntaxKind.CommaToken);
      context.edits.replace(property.getStart(), comma?.getEnd() ?? property.getEnd(), '');
      context.leave(
        options,
        'McpServer',
        `the McpServer option "${key ?? property.getText()}" has no Boomerang counterpart and was removed.`,
      );
    }
  }
}

/** Reports calls of official McpServer members that Boomerang's McpServer does not have (`server.server.…`). */
export function reportServerMembers(context: FileContext): void {
  for (const access of context.file.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)) {
    const name = access.getName();
    if (BOOMERANG_MEMBERS.has(name) || RENAMED.has(name)) continue;
    if (context.edits.overlaps(access.getStart(), access.getEnd())) continue;
    if (!isOfficialMcpServer(context, access.getExpression())) continue;
    const next = access.getParentIfKind(SyntaxKind.PropertyAccessExpression)?.getName();
    // server.server.elicitInput is the resolver rule's (converted, or left with its own comment).
    if (name === 'server' && next === 'elicitInput') continue;
    if (name === 'server' && (next === 'createMessage' || next === 'listRoots')) {
      context.leave(access, next, askMessage(`server.server.${next}`), 'guides/resolvers.md');
      continue;
    }
    const hint =
      name === 'server'
        ? 'the official low-level Server (server.server) has no counterpart: server→client requests become resolvers, notifications are sent for you or through ctx (sendProgress, log) and mcp.resourceUpdated(uri).'
        : `the official McpServer's "${name}" has no counterpart on Boomerang's McpServer.`;
    context.leave(access, name, hint);
  }
}

/** `RequestHandlerExtra<…>` / `ServerContext` type references become Boomerang's `RequestContext` (no type arguments). */
export function convertContextTypes(context: FileContext): void {
  for (const reference of context.file.getDescendantsOfKind(SyntaxKind.TypeReference)) {
    const name = context.officialName(reference.getTypeName())?.name;
    if (name !== 'RequestHandlerExtra' && name !== 'ServerContext') continue;
    if (reference.getTypeArguments().length === 0) continue;
    if (context.edits.overlaps(reference.getStart(), reference.getEnd())) continue;
    context.edits.replace(reference.getStart(), reference.getEnd(), reference.getTypeName().getText());
  }
}
