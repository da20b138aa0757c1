// The shape of the published runtime code (packages/*/src without tests, examples, test-support or fixtures),
// read with the TypeScript compiler rather than by pattern: files, lines, `as` casts (not `as const`), functions
// by length, files by length. `--max-function <n>` fails (exit 1) when a function is longer than n lines, so CI
// holds the limit the structure issue set; `--json` prints the figures for a note.
//   node scripts/code-metrics.mjs [--top 10] [--max-function 120] [--json]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { root } from './workspace.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new TypeError(`--${name} takes a positive integer`);
  return value;
};
const top = flag('top', 10);
const maxFunction = flag('max-function', undefined);
const json = args.includes('--json');

/** Whether a file under src/ ships as runtime code. */
const runtime = (path) =>
  /\.(ts|tsx|mts)$/.test(path) &&
  !/\.d\.ts$/.test(path) &&
  !/\.(test|examples|bench)\.(ts|tsx)$/.test(path) &&
  !/(^|\/)(test-support|fixtures|__tests__)\//.test(path);

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

const files = [];
for (const pkg of readdirSync(join(root, 'packages'))) {
  const src = join(root, 'packages', pkg, 'src');
  try {
    statSync(src);
  } catch {
    continue;
  }
  for (const path of walk(src)) if (runtime(relative(src, path))) files.push(path);
}

const functions = [];
const fileLines = [];
let lines = 0;
let casts = 0;
for (const path of files) {
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const count = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  lines += count;
  const name = relative(root, path);
  fileLines.push({ file: name, lines: count });
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line;
  const visit = (node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const type = node.type;
      const isConst = ts.isTypeReferenceNode(type) && type.typeName.getText(source) === 'const';
      if (!isConst) casts++;
    }
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const length = lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1;
      const label =
        node.name?.getText(source) ??
        (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : '(anonymous)');
      functions.push({ file: name, line: lineOf(node.getStart(source)) + 1, name: label, lines: length });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

functions.sort((a, b) => b.lines - a.lines);
fileLines.sort((a, b) => b.lines - a.lines);
const figures = {
  files: files.length,
  lines,
  casts,
  castsPer1000Lines: Number(((casts * 1000) / lines).toFixed(1)),
  functionsOver80: functions.filter((f) => f.lines > 80).length,
  functionsOver120: functions.filter((f) => f.lines > 120).length,
  filesOver400: fileLines.filter((f) => f.lines > 400).length,
  longestFunctions: functions.slice(0, top),
  longestFiles: fileLines.slice(0, top),
};

if (json) console.log(JSON.stringify(figures, null, 2));
else {
  console.log(
    `runtime: ${figures.files} files, ${figures.lines} lines, ${figures.casts} casts (${figures.castsPer1000Lines} per 1,000 lines)`,
  );
  console.log(
    `functions over 80 lines: ${figures.functionsOver80}, over 120: ${figures.functionsOver120}; files over 400 lines: ${figures.filesOver400}`,
  );
  console.log('longest functions:');
  for (const f of figures.longestFunctions)
    console.log(`  ${String(f.lines).padStart(4)}  ${f.name}  ${f.file}:${f.line}`);
  console.log('longest files:');
  for (const f of figures.longestFiles) console.log(`  ${String(f.lines).padStart(4)}  ${f.file}`);
}

if (maxFunction !== undefined) {
  const over = functions.filter((f) => f.lines > maxFunction);
  if (over.length > 0) {
    console.error(`${over.length} function(s) over ${maxFunction} lines:`);
    for (const f of over) console.error(`  ${f.lines}  ${f.name}  ${f.file}:${f.line}`);
    process.exitCode = 1;
  }
}
