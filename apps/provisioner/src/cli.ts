#!/usr/bin/env node
// The two-process manual loop: `start <name>` stores the pending call in a file, `answer <region>` (another
// process) finishes it. See README.md.
import { relative } from 'node:path';
import { runCli } from './cli-main.js';

const script = process.argv[1] === undefined ? 'provisioner' : relative(process.cwd(), process.argv[1]);
process.exitCode = await runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  cwd: process.cwd(),
  command: `node ${script || '.'}`,
});
