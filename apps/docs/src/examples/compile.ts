// Example programs that run on import (a stdio server serves its own stdin) are tested as child processes:
// compiled to JavaScript next to this app (so they resolve the workspace packages' built dist) and started.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import ts from 'typescript';
import { cacheDir } from '../paths.js';

/** Compiles each example file to `.cache/examples/<name>.js` and returns the path of the first. */
export function compileExamples(...files: string[]): string {
  const out = join(cacheDir, 'examples');
  mkdirSync(out, { recursive: true });
  const outputs = files.map((file) => {
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
      fileName: file,
    });
    const target = join(out, basename(file).replace(/\.ts$/, '.js'));
    writeFileSync(target, outputText);
    return target;
  });
  return outputs[0] as string;
}
