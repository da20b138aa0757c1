// Schemas of registrations: a zod raw shape (`{ name: z.string() }`, accepted by the official SDK) becomes
// `z.object({...})`, and `completable(schema, complete)` fields give their completers to the registration's
// `complete` option.
import { Node } from 'ts-morph';
import type { FileContext } from './file-context.js';

/** A schema's new text, and the completers taken out of its fields. */
export interface SchemaText {
  readonly text: string;
  readonly complete: ReadonlyArray<readonly [string, string]>;
}

/** The local name zod is imported under (`z` when the file imports none yet: the import is then added). */
export function zodName(context: FileContext): string {
  for (const declaration of context.file.getImportDeclarations()) {
    const specifier = declaration.getModuleSpecifierValue();
    if (specifier !== 'zod' && !specifier.startsWith('zod/')) continue;
    const namespace = declaration.getNamespaceImport()?.getText();
    if (namespace !== undefined) return namespace;
    const named = declaration.getNamedImports().find((n) => n.getName() === 'z');
    if (named !== undefined) return named.getAliasNode()?.getText() ?? 'z';
    const fallback = declaration.getDefaultImport()?.getText();
    if (fallback !== undefined) return fallback;
  }
  context.need('zod', 'z');
  return 'z';
}

/** Whether `node` is a raw shape: an object literal, or a variable initialised with one. */
export function isRawShape(node: Node): boolean {
  if (Node.isObjectLiteralExpression(node)) return true;
  if (!Node.isIdentifier(node)) return false;
  const declaration = node.getSymbol()?.getDeclarations()[0];
  return (
    Node.isVariableDeclaration(declaration) && Node.isObjectLiteralExpression(declaration.getInitializer())
  );
}

/**
 * The text of a schema for Boomerang: a raw shape wrapped in `z.object(...)`, `completable(...)` fields
 * unwrapped (their completers returned), anything else as written.
 */
export function schemaText(context: FileContext, node: Node): SchemaText {
  const shape = shapeLiteral(context, node);
  const complete: Array<readonly [string, string]> = [];
  let text = node.getText();
  if (shape !== undefined) {
    const start = node.getStart();
    const replacements: Array<{ start: number; end: number; text: string }> = [];
    for (const property of shape.getProperties()) {
      if (!Node.isPropertyAssignment(property)) continue;
      const value = property.getInitializerOrThrow();
      if (!Node.isCallExpression(value)) continue;
      const official = context.officialName(value.getExpression());
      const [schema, completer] = value.getArguments();
      if (official?.name !== 'completable' || schema === undefined || completer === undefined) continue;
      complete.push([property.getNameNode().getText(), completer.getText()]);
      replacements.push({
        start: value.getStart() - start,
        end: value.getEnd() - start,
        text: schema.getText(),
      });
    }
    for (const r of replacements.reverse()) text = text.slice(0, r.start) + r.text + text.slice(r.end);
  }
  if (isRawShape(node)) text = `${zodName(context)}.object(${text})`;
  return { text, complete };
}

/** The object literal of fields: a raw shape's, or that of an inline `z.object({...})`. */
function shapeLiteral(context: FileContext, node: Node) {
  if (Node.isObjectLiteralExpression(node)) return node;
  if (!Node.isCallExpression(node)) return undefined;
  const callee = node.getExpression();
  const [first] = node.getArguments();
  if (
    Node.isPropertyAccessExpression(callee) &&
    callee.getName() === 'object' &&
    callee.getExpression().getText() === zodNameIfAny(context) &&
    Node.isObjectLiteralExpression(first)
  ) {
    return first;
  }
  return undefined;
}

function zodNameIfAny(context: FileContext): string | undefined {
  for (const declaration of context.file.getImportDeclarations()) {
    const specifier = declaration.getModuleSpecifierValue();
    if (specifier !== 'zod' && !specifier.startsWith('zod/')) continue;
    return (
      declaration.getNamespaceImport()?.getText() ??
      declaration
        .getNamedImports()
        .find((n) => n.getName() === 'z')
        ?.getName() ??
      declaration.getDefaultImport()?.getText()
    );
  }
  return undefined;
}

/** Whether a v1 `tool()`/`prompt()` argument is a raw shape of zod fields (else it is annotations). */
export function isZodShapeArgument(node: Node): boolean {
  const literal = Node.isObjectLiteralExpression(node)
    ? node
    : Node.isIdentifier(node)
      ? node.getSymbol()?.getDeclarations()[0]
      : undefined;
  const object = Node.isVariableDeclaration(literal) ? literal.getInitializer() : literal;
  if (!Node.isObjectLiteralExpression(object)) return false;
  const properties = object.getProperties();
  if (properties.length === 0) return true;
  return properties.every((property) => {
    if (!Node.isPropertyAssignment(property)) return false;
    const type = property.getInitializerOrThrow().getType();
    if (type.getProperty('_zod') !== undefined || type.getProperty('_def') !== undefined) return true;
    // Without types (the SDK not installed), a field value built by a call is taken for a zod schema.
    return type.isAny() && Node.isCallExpression(property.getInitializerOrThrow());
  });
}
