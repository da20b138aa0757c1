// A line prompter over node:readline: the one piece of the interactive client that touches the terminal.
import { createInterface } from 'node:readline';
import type { Prompter } from './form.js';

/** A {@link Prompter} that must be closed when the program is done asking. */
export interface LinePrompter extends Prompter {
  close(): void;
}

/**
 * Reads answers line by line from `input`, showing each prompt on `output` (readline's prompt, so line editing
 * redraws it on a terminal). Lines that arrive before they are asked for are kept in order (piped input, tests),
 * and the end of input resolves every question to `undefined`. Off a terminal, the line read is echoed.
 */
export function createPrompter(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): LinePrompter {
  const isTty = (stream: unknown) => (stream as { isTTY?: boolean }).isTTY === true;
  const terminal = isTty(input) && isTty(output);
  const rl = createInterface({ input, output, terminal });
  const buffered: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let closed = false;
  rl.on('line', (line) => {
    const next = waiting.shift();
    if (next === undefined) buffered.push(line);
    else next(line);
  });
  rl.on('close', () => {
    closed = true;
    for (const next of waiting.splice(0)) next(undefined);
  });
  /** Without a terminal nothing echoes the typed line: write it after the prompt, so transcripts read well. */
  const echo = (line: string | undefined) => {
    if (!terminal) output.write(`${line ?? ''}\n`);
    return line;
  };
  return {
    async question(prompt) {
      if (closed) output.write(prompt);
      else {
        rl.setPrompt(prompt);
        rl.prompt();
      }
      const line = buffered.shift();
      if (line !== undefined || closed) return echo(line);
      return echo(await new Promise<string | undefined>((resolve) => waiting.push(resolve)));
    },
    close() {
      rl.close();
    },
  };
}
