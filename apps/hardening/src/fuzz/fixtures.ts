// The servers the fuzz targets attack: one McpServer with a plain tool, a tool whose resolvers ask, a prompt and a
// resource, built fresh for each run so that nothing leaks between targets.
import { type AnswerBinding, elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { MetaKey } from '@boomerang/protocol';
import { z } from 'zod';

/** `_meta` of a 2026-07-28 request whose client can answer form elicitations. */
export const META = {
  [MetaKey.protocolVersion]: '2026-07-28',
  [MetaKey.clientCapabilities]: { elicitation: { form: {} } },
} as const;

/** What the resolver tool's handler received, call by call. */
export interface Received {
  readonly calls: { a: unknown; b: unknown; c: unknown }[];
}

/**
 * The server under attack. `plan` asks `a` and `c` in round 1 and `b` (which uses `a`) once `a` is answered;
 * its handler records the three values it got. `echo` answers its text; `greeting` is a prompt; `note://1` a
 * resource. `answerBinding` is the McpServer option of that name.
 */
export function fuzzServer(answerBinding: AnswerBinding = 'question'): {
  mcp: McpServer;
  received: Received;
} {
  const received: Received = { calls: [] };
  const mcp = new McpServer({ name: 'fuzz', version: '1.0.0' }, { logger: {}, answerBinding });
  const form = z.object({ x: z.string().max(40) });
  const a = resolver({}, () => elicit('A?', form));
  const b = resolver({ uses: { a } }, ({ a: answer }) => elicit(`B after ${answer.x.length}?`, form));
  const c = resolver({}, () => elicit('C?', form));
  mcp.tool('plan', { resolve: { a, b, c } }, (_args, values) => {
    received.calls.push(values);
    return { content: [{ type: 'text', text: 'planned' }] };
  });
  mcp.tool('echo', { input: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  mcp.prompt('greeting', { input: z.object({ name: z.string() }) }, ({ name }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Hello ${name}` } }],
  }));
  mcp.resource('note://1', { name: 'note' }, () => ({ contents: [{ uri: 'note://1', text: 'n' }] }));
  return { mcp, received };
}
