import type { ElicitationCallback } from '@boomerang/client';
import { tapTransport } from '@boomerang/demo-kit';
import type { CallToolResult, ElicitResult } from '@boomerang/protocol';
import { generateKey } from '@boomerang/seal';
import { type Choice, choicesOf, createWireRenderer, firstText, formSchemaOf } from './format.js';
import { hostProvisioner } from './host.js';
import { provisionTool } from './server.js';

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** The database to provision (default `orders`). */
  name?: string;
  /**
   * The scripted answers, one per round (the last one repeats): a region id, or `decline`. Default
   * `['eu-west-1']`. Ignored when `ask` is given.
   */
  answers?: readonly string[];
  /** Asks a person instead (the terminal form of `--interactive`): gets the question, resolves to the answer. */
  ask?: (message: string, choices: readonly Choice[]) => Promise<string | undefined>;
  /** Prints every JSON-RPC message in full, too. */
  wire?: boolean;
}

/**
 * The automatic loop, shown round by round: a provisioner server and a client in one process, linked by the
 * in-memory pair, the client answering from its `elicitation` callback. Prints what goes out and what comes back;
 * resolves to the final result (the one `client.callTool` resolved to).
 */
export async function runDemo(options: DemoOptions, out: (line: string) => void): Promise<CallToolResult> {
  const name = options.name ?? 'orders';
  const answers = options.answers ?? ['eu-west-1'];
  const render = createWireRenderer();

  const elicitation: ElicitationCallback = async (params, ctx) => {
    const schema = formSchemaOf(params);
    const choices = choicesOf(schema);
    const field = schema === undefined ? undefined : Object.keys(schema.properties)[0];
    const source = options.ask ? 'typed' : 'scripted';
    const value = options.ask
      ? await options.ask(params.message, choices)
      : answers[Math.min(ctx.round, answers.length) - 1];
    const result: ElicitResult =
      value === undefined || value === '' || value === 'decline' || field === undefined
        ? { action: 'decline' }
        : { action: 'accept', content: { [field]: value } };
    out(
      `  ↳ elicitation callback (round ${ctx.round}, key "${ctx.key}"): ${result.action}` +
        `${result.content === undefined ? '' : ` ${JSON.stringify(result.content)}`} (${source})`,
    );
    return result;
  };

  out('Boomerang provisioner demo: a low-level Server and a Client in one process, linked by the in-memory');
  out('transport. The server seals its requestState under a key made for this run; the client answers the');
  out(
    'server’s question from its elicitation callback and sends the call again. Every leg is client → server.',
  );
  out('');
  await using provisioner = await hostProvisioner({
    keys: [generateKey()],
    client: { elicitation, elicitationModes: ['form'] },
    wrapTransport: (transport) =>
      tapTransport(transport, (direction, message) => {
        for (const line of render(direction, message)) out(line);
        if (options.wire) out(`    ${direction === 'out' ? '>>' : '<<'} ${JSON.stringify(message)}`);
      }),
  });
  const result = await provisioner.client.callTool(provisionTool.name, { name });
  out('');
  out(`client.callTool('${provisionTool.name}', ${JSON.stringify({ name })}) resolved to:`);
  out(`  ${result.isError === true ? 'isError: ' : ''}${firstText(result)}`);
  if (result.structuredContent !== undefined)
    out(`  structuredContent: ${JSON.stringify(result.structuredContent)}`);
  return result;
}
