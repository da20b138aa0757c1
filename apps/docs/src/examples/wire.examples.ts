// "The round trip on the wire": a server that asks, driven with raw JSON-RPC. wire.examples.test.ts runs it and
// checks that the messages shown on the page (wire-*.json) are exactly what the server sends and receives.
// #region server
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { z } from 'zod';

const Region = z.object({ region: z.enum(['eu-west-1', 'us-east-1']) });

export const deployer = new McpServer({ name: 'deployer', version: '1.0.0' });
deployer.tool(
  'deploy',
  {
    input: z.object({ service: z.string() }),
    resolve: { target: resolver({}, () => elicit('Which region?', Region)) },
  },
  ({ service }, { target }) => ({
    content: [{ type: 'text', text: `Deployed ${service} to ${target.region}` }],
  }),
);

// #endregion server

import { isInputRequired } from '@boomerang/protocol';
import { isJSONRPCResultResponse } from '@boomerang/protocol/transport';

/** The four messages of one two-round call, in order: request, `input_required`, retry, complete result. */
export async function roundTrip(): Promise<unknown[]> {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  };
  const first = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { _meta, name: 'deploy', arguments: { service: 'orders' } },
  };
  const asked = await deployer.handle(first);
  if (!isJSONRPCResultResponse(asked) || !isInputRequired(asked.result))
    throw new Error('expected a question');
  const [key] = Object.keys(asked.result.inputRequests ?? {});
  const retry = {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: {
      ...first.params,
      inputResponses: { [key as string]: { action: 'accept', content: { region: 'eu-west-1' } } },
      // Echoed byte for byte when the server sent one (this round has nothing recorded, so it sends none).
      ...(asked.result.requestState === undefined ? {} : { requestState: asked.result.requestState }),
    },
  };
  const done = await deployer.handle(retry);
  return [first, asked, retry, done];
}
