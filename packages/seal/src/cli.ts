#!/usr/bin/env node
// The `boomerang-seal` bin: wires the process to runCli (see cli-main.ts).
import process from 'node:process';
import { runCli } from './cli-main.js';

// `boomerang-seal --help | head` closes the pipe early; that is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

process.exitCode = runCli(process.argv.slice(2), {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  now: Date.now,
});
