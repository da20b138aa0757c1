#!/usr/bin/env node
// The `boomerang-codemod` bin: wires the process to runCli (see cli-main.ts).
import process from 'node:process';
import { runCli } from './cli-main.js';

process.exitCode = runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
