#!/usr/bin/env node
// The `boomerang-seal` bin: wires the process to runCli (see cli-main.ts).
import process from 'node:process';
import { runCli } from './cli-main.js';

process.exitCode = runCli(process.argv.slice(2), {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  now: Date.now,
});
