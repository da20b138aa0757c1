// `const answer = await ctx.mcpReq.elicitInput({ message, requestedSchema })` (v2) or
// `await server.server.elicitInput(…)` (v1) inside a handler becomes a resolver, when the pattern is clear:
// the call is awaited into a variable at the top level of the handler (or of a `try` there), nothing before it
// returns, and its message and schema are literal or built from the arguments and from declarations outside the
// handler. The resolver returns `elicitResult(message, schema)`, whose value (`{ action, content }`) the handler
// receives under the variable's name, so the code that reads the answer keeps working. Anything else gets a
// comment and a note.
import {
  type CallExpression,
  Node,
  type ObjectLiteralExpression,
  type ParameterDeclaration,
  SyntaxKind,
  TypeFormatFlags,
} from 'ts-morph';
import { type FileContext, indentationOf, oneLine } from './file-context.js';
import { askMessage, type HandlerPlan } from './plan.js';

/** A resolver the registration lists in `resolve`. */
export interface ResolveEntry {
  readonly key: string;
  readonly resolver: string;
}

/** Converts the clear `elicitInput` calls of a handler; leaves the others with a comment. */
export function convertElicitations(
  context: FileContext,
  plan: HandlerPlan,
  args: ParameterDeclaration | undefined,
  ctx: ParameterDeclaration | undefined,
): ResolveEntry[] {
  const resolve: ResolveEntry[] = [];
  for (const call of elicitCalls(plan.fn, ctx)) {
    const reason = unclear(call, plan, args);
    if (reason !== undefined) {
      context.leave(
        call,
        'elicitInput',
        `${askMessage('elicitInput')} Not converted: ${reason}.`,
        'guides/resolvers.md',
      );
      continue;
    }
    resolve.push(toResolver(context, plan, call, args));
  }
  return resolve;
}

/** The `elicitInput(...)` calls in the handler's own body (not in functions nested in it). */
function elicitCalls(fn: Node, ctx: ParameterDeclaration | undefined): CallExpression[] {
  const calls: CallExpression[] = [];
  fn.forEachDescendant((node, traversal) => {
    if (node !== fn && Node.isFunctionLikeDeclaration(node)) {
      traversal.skip();
      return;
    }
    if (!Node.isCallExpression(node)) return;
    const callee = node.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'elicitInput') return;
    const receiver = callee.getExpression();
    const ctxName = ctx?.getNameNode().getText();
    const onContext =
      Node.isPropertyAccessExpression(receiver) &&
      receiver.getName() === 'mcpReq' &&
      receiver.getExpression().getText() === ctxName;
    const onServer = Node.isPropertyAccessExpression(receiver) && receiver.getName() === 'server';
    if (onContext || onServer) calls.push(node);
  });
  return calls;
}

/** Why the call is not the clear pattern, or `undefined` when it is. */
function unclear(
  call: CallExpression,
  plan: HandlerPlan,
  args: ParameterDeclaration | undefined,
): string | undefined {
  const awaited = call.getParent();
  const declaration = awaited?.getParent();
  if (!Node.isAwaitExpression(awaited) || !Node.isVariableDeclaration(declaration)) {
    return 'its result is not awaited into a variable';
  }
  if (!Node.isIdentifier(declaration.getNameNode())) return 'its result is destructured';
  const statement = declaration.getParent()?.getParent();
  if (!Node.isVariableStatement(statement) || statement.getDeclarations().length !== 1) {
    return 'it shares its statement with other declarations';
  }
  const block = statement.getParent();
  const body = plan.fn.getBody();
  const tryBlock = block?.getParent();
  const topLevel =
    block === body ||
    (Node.isTryStatement(tryBlock) && tryBlock.getTryBlock() === block && tryBlock.getParent() === body);
  if (!topLevel) return 'it is asked conditionally (inside a branch or a loop)';
  if (returnsBefore(plan.fn, statement.getStart())) return 'the handler may return before asking';
  const params = call.getArguments()[0];
  if (!Node.isObjectLiteralExpression(params)) return 'its parameters are not an object literal';
  const fields = formFields(params);
  if (typeof fields === 'string') return fields;
  for (const expression of [fields.message, fields.schema]) {
    const outside = localReference(expression, plan, args);
    if (outside !== undefined)
      return `"${outside}" is computed inside the handler (only arguments and outer declarations can be asked about before it runs)`;
  }
  return undefined;
}

function returnsBefore(fn: Node, position: number): boolean {
  let found = false;
  fn.forEachDescendant((node, traversal) => {
    if (node.getStart() >= position) {
      traversal.skip();
      return;
    }
    if (node !== fn && Node.isFunctionLikeDeclaration(node)) traversal.skip();
    else if (Node.isReturnStatement(node) || Node.isThrowStatement(node)) found = true;
  });
  return found;
}

interface FormFields {
  readonly message: Node;
  readonly schema: Node;
}

function formFields(params: ObjectLiteralExpression): FormFields | string {
  let message: Node | undefined;
  let schema: Node | undefined;
  for (const property of params.getProperties()) {
    if (!Node.isPropertyAssignment(property) && !Node.isShorthandPropertyAssignment(property)) {
      return 'its parameters are not plain properties';
    }
    const name = property.getName();
    const value = Node.isPropertyAssignment(property)
      ? property.getInitializerOrThrow()
      : property.getNameNode();
    if (name === 'message') message = value;
    else if (name === 'requestedSchema') schema = value;
    else if (name === 'mode') {
      if (!Node.isStringLiteral(value) || value.getLiteralValue() !== 'form')
        return 'it is not a form elicitation';
    } else return `it sets "${name}"`;
  }
  if (message === undefined || schema === undefined) return 'it has no message or no requestedSchema';
  return { message, schema };
}

/** The first identifier of `expression` declared inside the handler (other than its arguments), if any. */
function localReference(
  expression: Node,
  plan: HandlerPlan,
  args: ParameterDeclaration | undefined,
): string | undefined {
  const identifiers = Node.isIdentifier(expression)
    ? [expression]
    : expression.getDescendantsOfKind(SyntaxKind.Identifier);
  for (const identifier of identifiers) {
    const parent = identifier.getParent();
    if (Node.isPropertyAccessExpression(parent) && parent.getNameNode() === identifier) continue;
    if (Node.isPropertyAssignment(parent) && parent.getNameNode() === identifier) continue;
    const declarations = identifier.getSymbol()?.getDeclarations() ?? [];
    for (const declaration of declarations) {
      if (args?.containsRange(declaration.getPos(), declaration.getEnd())) continue;
      if (!plan.fn.containsRange(declaration.getPos(), declaration.getEnd())) continue;
      return identifier.getText();
    }
  }
  return undefined;
}

/** Writes the resolver before the registration and removes the call from the handler. */
function toResolver(
  context: FileContext,
  plan: HandlerPlan,
  call: CallExpression,
  args: ParameterDeclaration | undefined,
): ResolveEntry {
  const declaration = call.getFirstAncestorByKindOrThrow(SyntaxKind.VariableDeclaration);
  const statement = declaration.getFirstAncestorByKindOrThrow(SyntaxKind.VariableStatement);
  const key = declaration.getName();
  const params = call.getArguments()[0];
  const fields = Node.isObjectLiteralExpression(params) ? formFields(params) : undefined;
  if (fields === undefined || typeof fields === 'string')
    throw new TypeError('unreachable: checked by unclear()');
  const used = usedArguments([fields.message, fields.schema], args);
  const name = context.freshName(
    `ask${pascal(plan.owner.replace(/^\w+ '/, '').replace(/'$/, ''))}${pascal(key)}`,
  );
  const indent = indentationOf(plan.registration);
  const message = reindent(fields.message, `${indent}  `);
  const schema = reindent(fields.schema, `${indent}  `);
  const signature = used.length === 0 ? '()' : `(${used.pattern}: { ${used.types} })`;
  const text =
    `// ${oneLine(plan.owner)}: asked before the handler runs; the answer is sealed in the request state and bound to this question.\n` +
    `${indent}const ${name} = resolver({ args: [${used.names.map((n) => `'${n}'`).join(', ')}] }, ${signature} =>\n` +
    `${indent}  elicitResult(${message}, ${schema}),\n${indent});\n${indent}`;
  context.edits.insert(plan.registration.getStart(), text);
  context.edits.replace(
    statement.getStart(),
    statement.getEnd(),
    `// "${key}" is the answer of the resolver ${name} (asked before this handler runs).`,
  );
  context.need('@boomerang/mcp-server', 'resolver');
  context.need('@boomerang/mcp-server', 'elicitResult');
  context.note(
    call,
    'rewritten',
    'elicitInput',
    `${plan.owner}: elicitInput became the resolver ${name}, resolved as "${key}".`,
  );
  return { key, resolver: name };
}

interface UsedArguments {
  readonly names: string[];
  readonly length: number;
  /** The parameter pattern of the resolver's function (`{ path }` or `args`). */
  readonly pattern: string;
  /** Its type's members (`path: string; force: boolean`). */
  readonly types: string;
}

/** Which tool arguments the question reads, and how the resolver's function receives them. */
function usedArguments(expressions: Node[], args: ParameterDeclaration | undefined): UsedArguments {
  const none: UsedArguments = { names: [], length: 0, pattern: '', types: '' };
  if (args === undefined) return none;
  const nameNode = args.getNameNode();
  const names = new Map<string, string>();
  const elements = new Map<string, string>();
  for (const expression of expressions) {
    const identifiers = Node.isIdentifier(expression)
      ? [expression]
      : expression.getDescendantsOfKind(SyntaxKind.Identifier);
    for (const identifier of identifiers) {
      for (const declaration of identifier.getSymbol()?.getDeclarations() ?? []) {
        if (!args.containsRange(declaration.getPos(), declaration.getEnd())) continue;
        if (Node.isBindingElement(declaration)) {
          const property = declaration.getPropertyNameNode()?.getText() ?? declaration.getName();
          names.set(property, typeText(declaration));
          elements.set(property, declaration.getText());
        } else if (Node.isParameterDeclaration(declaration)) {
          const access = identifier.getParent();
          if (Node.isPropertyAccessExpression(access) && access.getExpression() === identifier) {
            names.set(access.getName(), typeText(access));
          }
        }
      }
    }
  }
  if (names.size === 0) return none;
  const list = [...names.keys()];
  const types = list.map((n) => `${n}: ${names.get(n)}`).join('; ');
  const pattern = Node.isIdentifier(nameNode)
    ? nameNode.getText()
    : `{ ${list.map((n) => elements.get(n) ?? n).join(', ')} }`;
  return { names: list, length: list.length, pattern, types };
}

/** A node's text with its continuation lines moved from the indentation of its first line to `indent`. */
function reindent(node: Node, indent: string): string {
  const from = indentationOf(node);
  return node
    .getText()
    .split('\n')
    .map((line, i) => (i > 0 && line.startsWith(from) ? indent + line.slice(from.length) : line))
    .join('\n');
}

function typeText(node: Node): string {
  const type = node.getType();
  if (type.isAny()) return 'unknown';
  return type.getText(
    node,
    TypeFormatFlags.NoTruncation | TypeFormatFlags.UseAliasDefinedOutsideCurrentScope,
  );
}

function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('');
}
