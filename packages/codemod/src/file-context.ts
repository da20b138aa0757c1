// The state of one file's migration: its syntax tree, the official imports it has, the edits and notes the rules
// add, and the Boomerang names the rewritten code needs imported.
import { type ImportDeclaration, Node, type SourceFile } from 'ts-morph';
import { EditList } from './edits.js';
import { DOCS, MARK, type OfficialModule, officialModule } from './official.js';

/** Something the codemod did, or left for you, at a place in a file. */
export interface Note {
  /** 1-based line of the construct in the original file. */
  readonly line: number;
  /** 1-based column of the construct in the original file. */
  readonly column: number;
  /** `rewritten`: done, for the record; `manual`: left as it was (or half-way), with a comment in the code. */
  readonly kind: 'rewritten' | 'manual';
  /** A short name of the construct (`registerTool`, `elicitInput`, `import`, …). */
  readonly construct: string;
  /** What was done, or what is left and why (the text of the code comment, without the link). */
  readonly message: string;
}

/** An identifier imported from an official module. */
export interface OfficialImport {
  readonly module: OfficialModule;
  readonly specifier: string;
  /** The exported name (`default` for a default import, `*` for a namespace import). */
  readonly name: string;
  readonly declaration: ImportDeclaration;
  readonly typeOnly: boolean;
}

/** One file's migration in progress. */
export class FileContext {
  readonly edits = new EditList();
  readonly notes: Note[] = [];
  /** Boomerang imports the rewritten code needs: module → names (a name prefixed `type ` is type-only). */
  readonly needs = new Map<string, Set<string>>();
  /** Official local names → where they come from. */
  readonly imports = new Map<string, OfficialImport>();
  /** Statements that already carry a codemod comment (one comment per statement and message). */
  readonly #commented = new Map<number, Set<string>>();
  readonly #names = new Set<string>();

  constructor(readonly file: SourceFile) {
    for (const declaration of file.getImportDeclarations()) {
      const specifier = declaration.getModuleSpecifierValue();
      const module = officialModule(specifier);
      if (module === undefined) continue;
      const typeOnly = declaration.isTypeOnly();
      const add = (local: string, name: string, onlyType: boolean) =>
        this.imports.set(local, { module, specifier, name, declaration, typeOnly: typeOnly || onlyType });
      const defaultImport = declaration.getDefaultImport();
      if (defaultImport) add(defaultImport.getText(), 'default', false);
      const namespace = declaration.getNamespaceImport();
      if (namespace) add(namespace.getText(), '*', false);
      for (const named of declaration.getNamedImports()) {
        add(named.getAliasNode()?.getText() ?? named.getName(), named.getName(), named.isTypeOnly());
      }
    }
    file.forEachDescendant((node) => {
      if (Node.isIdentifier(node)) this.#names.add(node.getText());
    });
  }

  /** Whether the file imports anything from the official SDK (otherwise it is left alone). */
  get isOfficial(): boolean {
    return this.imports.size > 0;
  }

  /** The official export `node` refers to, when it is an identifier imported from an official module. */
  officialName(node: Node | undefined): OfficialImport | undefined {
    if (node === undefined || !Node.isIdentifier(node)) return undefined;
    const found = this.imports.get(node.getText());
    if (found === undefined) return undefined;
    // A local declaration of the same name shadows the import.
    const declarations = node.getSymbol()?.getDeclarations() ?? [];
    if (
      declarations.length > 0 &&
      !declarations.some((d) => Node.isImportSpecifier(d) || Node.isImportClause(d))
    ) {
      return undefined;
    }
    return found;
  }

  /** Records that the rewritten code needs `name` from `module` (`type Name` for a type-only import). */
  need(module: string, name: string): void {
    let names = this.needs.get(module);
    if (names === undefined) {
      names = new Set();
      this.needs.set(module, names);
    }
    if (name.startsWith('type ') && names.has(name.slice(5))) return;
    if (!name.startsWith('type ')) names.delete(`type ${name}`);
    names.add(name);
  }

  /** A name not used anywhere in the file yet, from `base` (then `base2`, `base3`, …). */
  freshName(base: string): string {
    let name = base;
    for (let i = 2; this.#names.has(name); i++) name = `${base}${i}`;
    this.#names.add(name);
    return name;
  }

  /** Notes something at `node` (line and column of the original file). */
  note(node: Node, kind: Note['kind'], construct: string, message: string): void {
    const { line, column } = this.file.getLineAndColumnAtPos(node.getStart());
    this.notes.push({ line, column, kind, construct, message });
  }

  /**
   * Leaves `node` as it is for you to finish: a note in the report, and a `// boomerang-codemod:` comment above
   * the statement that holds it, pointing at the guide `page` (a path below the docs site).
   */
  leave(node: Node, construct: string, message: string, page = 'migrating/official-sdk.md'): void {
    const statement = enclosingStatement(node);
    const start = statement.getStart();
    const seen = this.#commented.get(start) ?? new Set<string>();
    // One comment and one note per statement and message (a phase switch calls inputRequired many times).
    if (seen.has(message)) return;
    this.note(node, 'manual', construct, message);
    seen.add(message);
    this.#commented.set(start, seen);
    const indent = indentationOf(statement);
    this.edits.insert(start, `// ${MARK} ${oneLine(message)} See ${DOCS}/${page}\n${indent}`);
  }
}

/**
 * `text` on one line, for a `//` comment: a line break in it (from a name written as a multi-line template
 * literal, say) would end the comment and turn the rest into code.
 */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ');
}

/** The statement (or class member, or the file-level node) that holds `node`. */
export function enclosingStatement(node: Node): Node {
  let current: Node = node;
  for (;;) {
    const parent = current.getParent();
    if (parent === undefined) return current;
    if (
      Node.isStatement(current) &&
      (Node.isBlock(parent) || Node.isSourceFile(parent) || Node.isCaseClause(parent))
    ) {
      return current;
    }
    current = parent;
  }
}

/** The whitespace before `node` on its line. */
export function indentationOf(node: Node): string {
  const text = node.getSourceFile().getFullText();
  const start = node.getStart();
  let lineStart = start;
  while (lineStart > 0 && text[lineStart - 1] !== '\n') lineStart--;
  const prefix = text.slice(lineStart, start);
  let indent = '';
  for (const char of prefix) {
    if (char !== ' ' && char !== '\t') break;
    indent += char;
  }
  return indent;
}
