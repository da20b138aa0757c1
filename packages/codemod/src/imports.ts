// The imports, rewritten last: an official name still used after the rewrites moves to its Boomerang home, or
// stays imported from the official SDK (and is reported); a name no longer used goes; the Boomerang names the new
// code needs are added.
import { type ImportDeclaration, Node, SyntaxKind } from 'ts-morph';
import type { FileContext } from './file-context.js';
import { destinationOf } from './official.js';

/** Rewrites the file's official imports (after every other rule has recorded its edits). */
export function convertImports(context: FileContext): void {
  const kept = new Map<ImportDeclaration, string[]>();
  for (const [local, official] of context.imports) {
    const used = remainingUses(context, local, official.declaration);
    if (used.length === 0) continue;
    const destination = destinationOf(official.module, official.name);
    if (destination !== undefined) {
      const alias = destination.name === local ? destination.name : `${destination.name} as ${local}`;
      context.need(
        destination.module,
        official.typeOnly || onlyTypePositions(used) ? `type ${alias}` : alias,
      );
      continue;
    }
    const names = kept.get(official.declaration) ?? [];
    names.push(importText(official.name, local, official.typeOnly));
    kept.set(official.declaration, names);
    const first = used[0];
    if (first !== undefined) {
      context.leave(
        first,
        'import',
        `"${official.name}" is still imported from ${official.specifier}: Boomerang has no direct counterpart, so this code is left for you.`,
      );
    }
  }
  const declarations = [...new Set([...context.imports.values()].map((i) => i.declaration))];
  const firstDeclaration = declarations[0];
  if (firstDeclaration === undefined) return;
  for (const declaration of declarations) {
    const names = kept.get(declaration);
    const text =
      names === undefined
        ? ''
        : `import { ${names.join(', ')} } from '${declaration.getModuleSpecifierValue()}';`;
    const end = names === undefined ? lineEnd(declaration) : declaration.getEnd();
    context.edits.replace(declaration.getStart(), end, text);
  }
  const added = [...context.needs]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([module, names]) => {
      // `default as x` is written as a default import.
      const fallback = [...names].find((n) => n.startsWith('default as '))?.slice('default as '.length);
      const named = [...names].filter((n) => !n.startsWith('default as ')).sort(byName);
      const clause = [fallback, named.length > 0 ? `{ ${named.join(', ')} }` : undefined]
        .filter(Boolean)
        .join(', ');
      return `import ${clause} from '${module}';\n`;
    })
    .join('');
  context.edits.insert(firstDeclaration.getStart(), added);
}

/** References of an imported name outside the import itself and outside code the rewrites replaced. */
function remainingUses(context: FileContext, local: string, declaration: ImportDeclaration): Node[] {
  const uses: Node[] = [];
  for (const identifier of context.file.getDescendantsOfKind(SyntaxKind.Identifier)) {
    if (identifier.getText() !== local) continue;
    if (declaration.containsRange(identifier.getPos(), identifier.getEnd())) continue;
    if (context.edits.overlaps(identifier.getStart(), identifier.getEnd())) continue;
    const parent = identifier.getParent();
    if (Node.isPropertyAccessExpression(parent) && parent.getNameNode() === identifier) continue;
    if (
      (Node.isPropertyAssignment(parent) || Node.isPropertySignature(parent)) &&
      parent.getNameNode() === identifier
    )
      continue;
    if (context.officialName(identifier) === undefined) continue;
    uses.push(identifier);
  }
  return uses;
}

/** Whether every use is in a type position (so a type-only import serves them). */
function onlyTypePositions(uses: Node[]): boolean {
  return uses.every((use) => {
    const parent = use.getParent();
    return Node.isTypeReference(parent) || Node.isTypeQuery(parent) || Node.isQualifiedName(parent);
  });
}

function importText(name: string, local: string, typeOnly: boolean): string {
  const prefix = typeOnly ? 'type ' : '';
  if (name === 'default') return `${prefix}default as ${local}`;
  return `${prefix}${name === local ? name : `${name} as ${local}`}`;
}

/** The end of a declaration's line (its newline included), so a removed import leaves no blank line. */
function lineEnd(declaration: ImportDeclaration): number {
  const text = declaration.getSourceFile().getFullText();
  const end = declaration.getEnd();
  return text[end] === '\n' ? end + 1 : text.startsWith('\r\n', end) ? end + 2 : end;
}

function byName(a: string, b: string): number {
  return a.replace(/^type /, '').localeCompare(b.replace(/^type /, ''));
}
