// The server the soak drives: one McpServer whose `provision` tool takes two rounds (an elicitation, then a
// sampling request that depends on its answer), and a resource whose updates feed a `subscriptions/listen` stream.
import { elicit, McpServer, resolver, sample } from '@boomerang/mcp-server';
import { z } from 'zod';

/** The resource the soak's listener subscribes to; the server announces an update every `tickMs`. */
export const TICK_URI = 'soak://tick';

/** A soak server and the timer that announces resource updates; `stop()` ends both. */
export function soakServer(tickMs: number): { mcp: McpServer; stop(): Promise<void> } {
  const mcp = new McpServer({ name: 'soak', version: '1.0.0' }, { logger: { error: console.error } });
  const region = resolver({}, () => elicit('Which region?', z.object({ region: z.string() })));
  const name = resolver({ uses: { region } }, ({ region: answer }) =>
    sample({
      messages: [{ role: 'user', content: { type: 'text', text: `Name a database in ${answer.region}` } }],
      maxTokens: 20,
    }),
  );
  mcp.tool(
    'provision',
    { input: z.object({ id: z.number() }), resolve: { region, name } },
    ({ id }, { region: where, name: answer }) => {
      const [block] = Array.isArray(answer.content) ? answer.content : [answer.content];
      const text = block?.type === 'text' ? block.text : '?';
      return { content: [{ type: 'text', text: `#${id}: ${text} in ${where.region}` }] };
    },
  );
  mcp.resource(TICK_URI, { name: 'tick' }, () => ({
    contents: [{ uri: TICK_URI, text: String(Date.now()) }],
  }));
  const timer = setInterval(() => mcp.resourceUpdated(TICK_URI), tickMs);
  return {
    mcp,
    async stop() {
      clearInterval(timer);
      await mcp.close();
    },
  };
}
