import { Client } from '@boomerang/client';
import { type Direction, tapTransport } from '@boomerang/demo-kit';
import type { CallToolResult, ElicitRequest, ElicitResult, JSONRPCMessage } from '@boomerang/protocol';
import { isJSONRPCRequest, isJSONRPCResultResponse } from '@boomerang/protocol/transport';
import { generateKey } from '@boomerang/seal';
import { createInMemoryPair } from '@boomerang/transport-memory';
import { afterEach, describe, expect, it } from 'vitest';
import { createProvisionerServer, REGIONS } from './server.js';

interface Seen {
  direction: Direction;
  message: JSONRPCMessage;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A provisioner server and a client answering with `answers` (one per round) over the in-memory pair. */
async function link(answers: ElicitResult[]) {
  const seen: Seen[] = [];
  const asked: ElicitRequest['params'][] = [];
  const server = createProvisionerServer({ keys: [generateKey()], logger: {} });
  const client = new Client(
    { name: 'test-host', version: '1.0.0' },
    {
      elicitation: (params, ctx) => {
        asked.push(params);
        return answers[Math.min(ctx.round, answers.length) - 1] as ElicitResult;
      },
    },
  );
  const [clientEnd, serverEnd] = createInMemoryPair();
  const connection = await server.connect(serverEnd);
  await client.connect(tapTransport(clientEnd, (direction, message) => seen.push({ direction, message })));
  seen.length = 0; // forget connect()'s server/discover probe: the tests look at the calls
  cleanups.push(async () => {
    await client.close();
    await connection.close();
  });
  const calls = () => seen.filter((s) => isJSONRPCRequest(s.message) && s.message.method === 'tools/call');
  const results = () => seen.filter((s) => isJSONRPCResultResponse(s.message));
  return { client, seen, asked, calls, results };
}

const accept = (region: string): ElicitResult => ({ action: 'accept', content: { region } });

describe('provision over the automatic loop', () => {
  it('asks for the region, then completes on the retry: two requests, round by round', async () => {
    const { client, calls, results, asked } = await link([accept('eu-west-1')]);
    const result = await client.callTool('provision', { name: 'orders' });

    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ name: 'orders', region: 'eu-west-1' });
    expect((result.content[0] as { text: string }).text).toMatch(
      /^Provisioned database 'orders' in eu-west-1 \(Europe \(Ireland\)\): db-[0-9a-f]{10} at /,
    );

    const [first, retry] = calls().map((s) => s.message) as [JSONRPCMessage, JSONRPCMessage];
    expect(calls()).toHaveLength(2);
    const [question, answer] = results().map(
      (s) => (s.message as { result: Record<string, unknown> }).result,
    );

    // Round 1: the plain call; the server answers with a question and sealed state.
    expect((first as { params: Record<string, unknown> }).params).toMatchObject({
      name: 'provision',
      arguments: { name: 'orders' },
    });
    expect((first as { params: Record<string, unknown> }).params).not.toHaveProperty('inputResponses');
    expect((first as { params: Record<string, unknown> }).params).not.toHaveProperty('requestState');
    expect(question).toMatchObject({
      resultType: 'input_required',
      inputRequests: { region: { method: 'elicitation/create', params: { mode: 'form' } } },
    });
    const state = question?.requestState as string;
    expect(typeof state).toBe('string');
    expect(state).not.toContain('rsv-'); // the reservation inside is encrypted, not just signed
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toBe("Which region should the database 'orders' live in?");
    const field = (asked[0] as { requestedSchema: { properties: Record<string, { oneOf: unknown[] }> } })
      .requestedSchema.properties.region;
    expect(field?.oneOf).toEqual(REGIONS.map((r) => ({ const: r.const, title: r.title })));

    // Round 2: a new request (new id) repeating the call, with the answer and the state byte for byte.
    const retryParams = (retry as { params: Record<string, unknown> }).params;
    expect((retry as { id: unknown }).id).not.toBe((first as { id: unknown }).id);
    expect(retryParams).toMatchObject({
      name: 'provision',
      arguments: { name: 'orders' },
      inputResponses: { region: { action: 'accept', content: { region: 'eu-west-1' } } },
    });
    expect(retryParams.requestState).toBe(state);
    expect(answer).toMatchObject({ resultType: 'complete', structuredContent: { region: 'eu-west-1' } });
  });

  it('asks again, with fresh state, when the answer is not a region it offers', async () => {
    const { client, calls, results, asked } = await link([accept('mars-1'), accept('ap-southeast-2')]);
    const result = await client.callTool('provision', { name: 'billing' });

    expect(result.structuredContent).toMatchObject({ name: 'billing', region: 'ap-southeast-2' });
    expect(calls()).toHaveLength(3);
    expect(asked[1]?.message).toBe(
      "'mars-1' is not a region we offer. Which region should the database 'billing' live in?",
    );
    const states = results()
      .map((s) => (s.message as { result: { requestState?: string } }).result.requestState)
      .filter((s) => s !== undefined);
    expect(states).toHaveLength(2);
    expect(states[0]).not.toBe(states[1]); // every round is sealed again
    // The reservation survives the extra round: same database id whatever the round count.
    expect((result.structuredContent as { id: string }).id).toMatch(/^db-[0-9a-f]{10}$/);
  });

  it('reports a declined question as a tool error the model can read', async () => {
    const { client } = await link([{ action: 'decline' }]);
    const result: CallToolResult = await client.callTool('provision', { name: 'orders' });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: "Provisioning of 'orders' was cancelled: no region was chosen (decline)." },
    ]);
  });

  it('rejects a bad name before asking anything', async () => {
    const { client, asked } = await link([accept('eu-west-1')]);
    const result = await client.callTool('provision', { name: 'Not A Label' });
    expect(result.isError).toBe(true);
    expect(asked).toHaveLength(0);
  });

  it('lists the tool, and answers -32602 for an unknown one', async () => {
    const { client } = await link([]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['provision']);
    await expect(client.callTool('deprovision', { name: 'orders' })).rejects.toMatchObject({
      code: -32602,
      message: 'Unknown tool: deprovision',
    });
  });
});
