// README example: what a host does with a server it did not write.
// #region host
import { Client, isClientError } from '@boomerang/client';
import type { Tool } from '@boomerang/protocol';
import type { Transport } from '@boomerang/protocol/transport';

/** Lists every tool (all pages), logs what the server says at `info` and above, and calls one tool. */
export async function survey(
  transport: Transport,
  log: string[],
): Promise<{ tools: Tool[]; answer: string }> {
  const client = new Client(
    { name: 'host', version: '1.0.0' },
    {
      logLevel: 'info', // sent with every request; the server sends nothing below it (and nothing without it)
      onLog: ({ level, data }, ctx) =>
        log.push(`${level} ${ctx.request?.method ?? ''} ${JSON.stringify(data)}`),
    },
  );
  await client.connect(transport);
  try {
    const tools = await client.tools({}, { maxPages: 20 }).toArray(); // every page; or `for await … of`
    try {
      // `structuredContent` is checked against the outputSchema the list showed for `weather`.
      const result = await client.callTool('weather', { city: 'Lisbon' }, { logLevel: 'debug' });
      return { tools, answer: JSON.stringify(result.structuredContent) };
    } catch (error) {
      if (isClientError(error, 'invalid-result')) return { tools, answer: `rejected: ${error.message}` };
      throw error;
    }
  } finally {
    await client.close();
  }
}
// #endregion host
