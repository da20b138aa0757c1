#!/usr/bin/env node
// The two-process manual loop: `start <name>` stores the pending call in a file, `answer <region>` (another
// process) finishes it. See README.md.
import { relative } from 'node:path';
import { runCli } from './cli-main.js';

// How to run this CLI again, for the hints it prints: relative to the working directory when below it.
const path = process.argv[1] ?? 'provisioner';
const script = relative(process.cwd(), path).startsWith('..') ? path : relative(process.cwd(), path);
process.exitCode = await runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  cwd: process.cwd(),
  command: `node ${script}`,
});
