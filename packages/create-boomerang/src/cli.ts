#!/usr/bin/env node
// The `create-boomerang` bin: wires the process to runCli (see cli-main.ts). It asks questions only in a terminal.
import process from 'node:process';
import { createInterface } from 'node:readline/promises';
import { runCli } from './cli-main.js';

const ask = process.stdin.isTTY
  ? async (question: string): Promise<string> => {
      const readline = createInterface({ input: process.stdin, output: process.stdout });
      try {
        return await readline.question(question);
      } finally {
        readline.close();
      }
    }
  : undefined;

process.exitCode = await runCli(
  process.argv.slice(2),
  { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text), ask },
  { cwd: process.cwd(), env: process.env },
);
