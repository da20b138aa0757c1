import { ErrorCode, McpError, elicitRequest, inputRequired } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
// Temporary smoke test against the real server (not committed).
import { Server, sealed } from '../../server/src/index.js';
import { connectInMemory } from '../../transport-memory/src/connect.js';
import { Client } from './index.js';

describe('e2e with @boomerang/server', () => {
  it('runs the loop against a real low-level server with sealed state', async () => {
    const server = new Server({ name: 'prov', version: '1.0.0' }, {
      requestState: sealed({ keys: [new Uint8Array(32).fill(7)] }),
      onListTools: async () => ({ tools: [{ name: 'provision', inputSchema: { type: 'object' } }] }),
      onCallTool: async (params, ctx) => {
        const region = (ctx as any).inputResponses?.region;
        if (region === undefined) {
          return inputRequired({
            inputRequests: { region: elicitRequest({ message: 'Region?', requestedSchema: { type: 'object', properties: { region: { type: 'string' } } } }) },
            requestState: 'step1',
          });
        }
        return { content: [{ type: 'text', text: `${(ctx as any).requestState} ${region.content.region}` }] };
      },
    } as any);
    const client = new Client({ name: 'c', version: '1' }, { elicitation: async () => ({ action: 'accept', content: { region: 'eu' } }) });
    await using _link = await connectInMemory(client, server);
    console.log(JSON.stringify(await client.discover()));
    console.log(JSON.stringify(await client.listTools()));
    const r = await client.callTool('provision', { name: 'orders' });
    console.log(JSON.stringify(r));
    const c2 = new Client({ name: 'c', version: '1' });
    await using _l2 = await connectInMemory(c2, server);
    const e = await c2.callTool('provision', {}).catch((x) => x);
    console.log(String(e), JSON.stringify(e.data));
    const bad = await c2.session.callTool('provision', {}, { allowInputRequired: true, requestState: 'forged', inputResponses: { region: { action: 'decline' } } }).catch((x) => x);
    console.log(String(bad));
    expect(ErrorCode).toBeDefined(); expect(McpError).toBeDefined();
  });
});
