#!/usr/bin/env node
// The automatic loop, round by round. Non-interactive by default (scripted answers); `--interactive` asks on
// the terminal. Options: --name <db>, --answer <region[,region…]> (one per round), --wire (full JSON-RPC).
import { createInterface } from 'node:readline/promises';
import { type DemoOptions, runDemo } from './demo-main.js';
import type { Choice } from './format.js';

const USAGE = `Usage: node apps/provisioner/dist/demo.js [--interactive] [--name <db>] [--answer <region[,region…]>] [--wire]`;

function parse(argv: readonly string[]): (DemoOptions & { interactive: boolean }) | undefined {
  const options: DemoOptions & { interactive: boolean } = { interactive: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] as string).split('=', 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--interactive') options.interactive = true;
    else if (flag === '--wire') options.wire = true;
    else if (flag === '--name') options.name = value() ?? '';
    else if (flag === '--answer') options.answers = (value() ?? '').split(',');
    else return undefined;
  }
  return options;
}

/** Asks on the terminal: numbered choices; a number or a region id; an empty line (or end of input) declines. */
async function askOnTerminal(message: string, choices: readonly Choice[]): Promise<string | undefined> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    process.stdout.write(`\n  ${message}\n`);
    choices.forEach((c, i) => {
      process.stdout.write(`    ${String(i + 1).padStart(2)}. ${c.value.padEnd(16)} ${c.title}\n`);
    });
    const line = (
      await rl.question('  Your choice (number or id, empty to decline): ').catch(() => '')
    ).trim();
    const byNumber = /^\d+$/.test(line) ? choices[Number(line) - 1]?.value : undefined;
    return line === '' ? undefined : (byNumber ?? line);
  } finally {
    rl.close();
  }
}

const options = parse(process.argv.slice(2));
if (options === undefined) {
  process.stderr.write(`${USAGE}\n`);
  process.exitCode = 2;
} else {
  try {
    const result = await runDemo(options.interactive ? { ...options, ask: askOnTerminal } : options, (line) =>
      process.stdout.write(`${line}\n`),
    );
    process.exitCode = result.isError === true ? 1 : 0;
  } catch (error) {
    process.stderr.write(`demo failed: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  }
}
