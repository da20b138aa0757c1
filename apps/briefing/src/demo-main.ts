import { Client, type ElicitationCallback } from '@boomerang/client';
import { createRoundPrinter, tapTransport } from '@boomerang/demo-kit';
import type { ElicitResult, GetPromptResult } from '@boomerang/protocol';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { createBriefingServer } from './server.js';

/** The two prompts of the briefing server. */
export const PROMPTS = ['briefing', 'briefing_by_hand'] as const;
/** One of {@link PROMPTS}. */
export type PromptName = (typeof PROMPTS)[number];

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Which prompts to get, in order (default: both). */
  prompts?: readonly PromptName[];
  /** The `topic` argument (default `the third-quarter results`; empty: none). */
  topic?: string;
  /** The scripted answer (default `the board`); `decline` or `cancel` refuses. Ignored when `ask` is given. */
  audience?: string;
  /** Asks a person instead (`--interactive`): gets the question, resolves to the answer, `undefined` declines. */
  ask?: (message: string) => Promise<string | undefined>;
}

/** What {@link runDemo} got for each prompt: the result, or the error `getPrompt` rejected with. */
export type DemoOutcome = { prompt: PromptName } & ({ result: GetPromptResult } | { error: Error });

/**
 * The seed's second example, round by round: a briefing `McpServer` and a `Client` in one process over the
 * in-memory pair. `client.getPrompt()` runs the automatic loop; the demo prints what goes out and comes back
 * (the question, the answer, the sealed state) and the prompt messages it resolved to.
 */
export async function runDemo(options: DemoOptions, out: (line: string) => void): Promise<DemoOutcome[]> {
  const topic = options.topic ?? 'the third-quarter results';
  const scripted = options.audience ?? 'the board';
  const print = createRoundPrinter();

  const elicitation: ElicitationCallback = async (params, ctx) => {
    const typed = options.ask === undefined ? scripted : await options.ask(params.message);
    const result: ElicitResult =
      typed === undefined || typed === 'decline'
        ? { action: 'decline' }
        : typed === 'cancel'
          ? { action: 'cancel' }
          : { action: 'accept', content: { audience: typed } };
    const how = options.ask === undefined ? 'scripted' : 'typed';
    out(
      `  ↳ elicitation callback (round ${ctx.round}): ${result.action}` +
        `${result.content === undefined ? '' : ` ${JSON.stringify(result.content)}`} (${how})`,
    );
    return result;
  };

  out('Boomerang briefing demo: an McpServer and a Client in one process (in-memory transport).');
  out('The prompt cannot finish without knowing its audience, so prompts/get answers input_required;');
  out('the client answers from its elicitation callback and sends prompts/get again.');

  const server = createBriefingServer();
  const [clientEnd, serverEnd] = createInMemoryPair();
  const connection = await server.connect(serverEnd);
  const client = new Client({ name: 'briefing-demo', version: '1.0.0' }, { elicitation });
  const outcomes: DemoOutcome[] = [];
  try {
    await client.connect(
      tapTransport(clientEnd, (direction, message) => {
        for (const line of print(direction, message)) out(line);
      }),
    );
    for (const prompt of options.prompts ?? PROMPTS) {
      out('');
      out(`== client.getPrompt('${prompt}'${topic === '' ? '' : `, { topic: '${topic}' }`})`);
      try {
        const result = await client.getPrompt(prompt, topic === '' ? {} : { topic });
        out('resolved to:');
        for (const message of result.messages) {
          const text = message.content.type === 'text' ? message.content.text : `[${message.content.type}]`;
          out(`  ${message.role}: ${text}`);
        }
        outcomes.push({ prompt, result });
      } catch (error) {
        out(`rejected: ${(error as Error).message}`);
        outcomes.push({ prompt, error: error as Error });
      }
    }
  } finally {
    await client.close();
    await connection.close();
  }
  return outcomes;
}
