#!/usr/bin/env node
// The briefing prompt, round by round. Non-interactive by default (a scripted audience); `--interactive` asks
// on the terminal. Options: --prompt <briefing|briefing_by_hand>, --topic <text>, --audience <text|decline|cancel>.
import { createInterface } from 'node:readline/promises';
import { type DemoOptions, PROMPTS, type PromptName, runDemo } from './demo-main.js';

const USAGE =
  'Usage: node apps/briefing/dist/demo.js [--interactive] [--prompt briefing|briefing_by_hand] ' +
  '[--topic <text>] [--audience <text|decline|cancel>]';

function parse(argv: readonly string[]): (DemoOptions & { interactive: boolean }) | undefined {
  const options: DemoOptions & { interactive: boolean } = { interactive: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] as string).split('=', 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i] ?? '';
    if (flag === '--interactive') options.interactive = true;
    else if (flag === '--topic') options.topic = value();
    else if (flag === '--audience') options.audience = value();
    else if (flag === '--prompt') {
      const prompt = value();
      if (!(PROMPTS as readonly string[]).includes(prompt)) return undefined;
      options.prompts = [prompt as PromptName];
    } else return undefined;
  }
  return options;
}

/** Asks on the terminal; an empty line (or the end of input) declines. */
async function askOnTerminal(message: string): Promise<string | undefined> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const line = (await rl.question(`\n  ${message} (empty to decline) `).catch(() => '')).trim();
    return line === '' ? undefined : line;
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
    const outcomes = await runDemo(
      options.interactive ? { ...options, ask: askOnTerminal } : options,
      (line) => process.stdout.write(`${line}\n`),
    );
    process.exitCode = outcomes.every((outcome) => 'result' in outcome) ? 0 : 1;
  } catch (error) {
    process.stderr.write(`demo failed: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  }
}
