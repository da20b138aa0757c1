import { ClientError } from '@boomerang/client';
import { elicit, listRoots, McpServer, resolver } from '@boomerang/mcp-server';
import { type AuthInfo, ErrorCode, elicitRequest, inputRequired, McpError } from '@boomerang/protocol';
import { ElicitResultSchema } from '@boomerang/protocol/schemas';
import type { Transport } from '@boomerang/protocol/transport';
import { Server } from '@boomerang/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accept, decline, roots } from './answers.js';
import { connectTestClient } from './harness.js';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const ask = (message: string) =>
  elicitRequest({
    message,
    requestedSchema: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] },
  });
const answerOf = (value: unknown): string | undefined => {
  const parsed = ElicitResultSchema.safeParse(value);
  const content = parsed.success && parsed.data.action === 'accept' ? parsed.data.content : undefined;
  return typeof content?.value === 'string' ? content.value : undefined;
};

/**
 * A low-level server with meaningful keys: `provision` asks `region` (with state); `survey` asks `q` in as many
 * rounds as `arguments.rounds`, without state; `fail` throws; `whoami` answers the principal's subject; `count`
 * sends progress.
 */
function provisioner() {
  return new Server(
    { name: 'provisioner', version: '1.0.0' },
    {
      onListTools: () => ({ tools: [] }),
      onCallTool: async ({ name, arguments: args = {} }, ctx) => {
        switch (name) {
          case 'provision': {
            const region = answerOf(ctx.inputResponses?.region);
            if (ctx.requestState === 'asked' && region !== undefined)
              return text(`${String(args.name)} in ${region}`);
            return inputRequired({ inputRequests: { region: ask('Which region?') }, requestState: 'asked' });
          }
          case 'survey': {
            const answers =
              Object.keys(ctx.inputResponses ?? {}).length === 0 ? 0 : Number(ctx.requestState ?? 0);
            const got = answerOf(ctx.inputResponses?.q);
            const done = answers + (got === undefined ? 0 : 1);
            if (done >= Number(args.rounds)) return text(`${String(args.tag)}: ${got}`);
            return inputRequired({
              inputRequests: { q: ask(`Question ${done + 1} of ${String(args.tag)}`) },
              ...(done > 0 ? { requestState: String(done) } : {}),
            });
          }
          case 'fail':
            throw new McpError(ErrorCode.InvalidParams, 'No such thing');
          case 'whoami':
            return text(ctx.auth?.subject ?? 'nobody');
          case 'count':
            for (let i = 1; i <= 3; i++) await ctx.sendProgress(i, 3);
            return text('counted');
          default:
            throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
        }
      },
    },
  );
}

describe('connectTestClient', () => {
  it('connects in one call and records each call round by round (answers by key)', async () => {
    await using t = await connectTestClient(provisioner(), {
      answers: { region: accept({ value: 'eu-west-1' }) },
    });
    expect(t.calls).toEqual([]); // the connection's own discovery is not a call of the test
    expect(t.lastCall).toBeUndefined();
    const result = await t.client.callTool('provision', { name: 'orders' });
    expect(result.content).toEqual([{ type: 'text', text: 'orders in eu-west-1' }]);
    expect(t.calls).toHaveLength(1);
    const call = t.lastCall;
    expect(call).toMatchObject({
      method: 'tools/call',
      name: 'provision',
      uri: undefined,
      params: { name: 'provision', arguments: { name: 'orders' } },
      error: undefined,
    });
    expect(call?.result).toMatchObject({ resultType: 'complete', content: result.content });
    const [first, second] = call?.rounds ?? [];
    expect(first).toMatchObject({
      round: 1,
      resultType: 'input_required',
      inputResponses: undefined,
      requestState: undefined,
    });
    expect(first?.inputRequests.region).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Which region?' },
    });
    expect(first?.request.params?._meta).toBeDefined(); // the request as sent
    expect(second).toMatchObject({
      round: 2,
      resultType: 'complete',
      inputRequests: {},
      inputResponses: { region: { action: 'accept', content: { value: 'eu-west-1' } } },
      requestState: 'asked',
    });
    expect(call?.asked(1)).toBe(first?.inputRequests);
    expect(call?.asked(2)).toEqual({});
    expect(() => call?.asked(3)).toThrow(
      new RangeError('"round" expected one of the rounds 1 to 2 of tools/call "provision", got 3'),
    );
    expect(() => call?.asked(0)).toThrow(RangeError);
    expect(() => call?.asked(1.5)).toThrow(RangeError);
  });

  it('records every call after connecting, and what the server answered with an error', async () => {
    await using t = await connectTestClient(provisioner());
    await t.client.listTools();
    await expect(t.client.callTool('fail')).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    expect(t.calls.map((c) => c.method)).toEqual(['tools/list', 'tools/call']);
    expect(t.lastCall).toMatchObject({
      name: 'fail',
      result: undefined,
      error: { code: ErrorCode.InvalidParams, message: 'No such thing' },
    });
    expect(t.lastCall?.rounds[0]).toMatchObject({ resultType: undefined, error: { code: -32602 } });
    expect(() => t.calls[0]?.asked(2)).toThrow('"round" expected one of the round 1 of tools/list, got 2');
  });

  it('an unscripted question fails the call, naming it; the rounds so far are recorded', async () => {
    await using t = await connectTestClient(provisioner());
    const error = await t.client.callTool('provision', { name: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ reason: 'callback-failed', key: 'region' });
    expect(String((error as Error).cause)).toContain(
      'No scripted answer for elicitation/create "region" (round 1 of tools/call "provision"): "Which region?"',
    );
    expect(t.lastCall?.rounds).toHaveLength(1);
    expect(t.lastCall?.result).toBeUndefined();
  });

  it('rules: by round, with `times`, and a function that sees the question and its context', async () => {
    const seen: string[] = [];
    await using t = await connectTestClient(provisioner(), {
      answers: [
        { key: 'q', round: 1, answer: accept({ value: 'first' }) },
        { key: 'q', times: 1, answer: accept({ value: 'second' }) },
        {
          question: /^Question \d/,
          answer: (request, ctx) => {
            seen.push(`${ctx.name} ${ctx.key} round ${ctx.round}: ${request.method}`);
            return accept({ value: `answer ${ctx.round}` });
          },
        },
      ],
    });
    const result = await t.client.callTool('survey', { rounds: 4, tag: 's' });
    expect(result.content).toEqual([{ type: 'text', text: 's: answer 4' }]);
    const call = t.lastCall;
    expect(call?.rounds.map((r) => r.resultType)).toEqual([
      'input_required',
      'input_required',
      'input_required',
      'input_required',
      'complete',
    ]);
    expect(call?.rounds.map((r) => answerOf(r.inputResponses?.q))).toEqual([
      undefined,
      'first',
      'second',
      'answer 3',
      'answer 4',
    ]);
    expect(call?.rounds.map((r) => r.requestState)).toEqual([undefined, undefined, '1', '2', '3']);
    expect(seen).toEqual(['survey q round 3: elicitation/create', 'survey q round 4: elicitation/create']);
  });

  it('groups concurrent calls of one tool by their params and state', async () => {
    await using t = await connectTestClient(provisioner(), {
      answers: {
        // The first call's answers come last, so its retries go out after the others' (and match them by params).
        q: async (request) => {
          const message = request.method === 'elicitation/create' ? request.params.message : '';
          if (message.endsWith(' of a')) await new Promise((resolve) => setTimeout(resolve, 50));
          return accept({ value: message });
        },
      },
    });
    const results = await Promise.all(
      ['a', 'b', 'c'].map((tag, i) => t.client.callTool('survey', { rounds: i + 1, tag })),
    );
    expect(results.map((r) => r.content)).toEqual([
      [{ type: 'text', text: 'a: Question 1 of a' }],
      [{ type: 'text', text: 'b: Question 2 of b' }],
      [{ type: 'text', text: 'c: Question 3 of c' }],
    ]);
    expect(t.calls).toHaveLength(3);
    for (const call of t.calls) {
      const tag = String((call.params.arguments as { tag: string }).tag);
      const rounds = Number((call.params.arguments as { rounds: number }).rounds);
      expect(call.rounds).toHaveLength(rounds + 1);
      for (let n = 1; n <= rounds; n++) {
        expect(call.asked(n).q?.params).toMatchObject({ message: `Question ${n} of ${tag}` });
      }
      expect(call.result).toBeDefined();
    }
  });

  it('declare: a question the client does not declare is the server’s -32021, recorded', async () => {
    const mcp = new McpServer({ name: 'm', version: '1.0.0' });
    const where = resolver({}, () => listRoots());
    mcp.tool('where', { resolve: { where } }, (_args, { where }) =>
      text(where.roots.map((r) => r.uri).join(',')),
    );
    {
      await using t = await connectTestClient(mcp, {
        declare: ['elicitation'],
        answers: [{ answer: roots('file:///x') }],
      });
      await expect(t.client.callTool('where')).rejects.toMatchObject({
        code: ErrorCode.MissingRequiredClientCapability,
      });
      expect(t.lastCall?.error?.code).toBe(ErrorCode.MissingRequiredClientCapability);
      expect(t.lastCall?.rounds[0]?.request.params?._meta).toMatchObject({
        'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
      });
    }
    await using t = await connectTestClient(mcp, {
      answers: [{ method: 'roots/list', answer: roots('file:///repo') }],
    });
    expect((await t.client.callTool('where')).content).toEqual([{ type: 'text', text: 'file:///repo' }]);
  });

  it('a declined question reaches an McpServer tool as the refusal it is', async () => {
    const mcp = new McpServer({ name: 'm', version: '1.0.0' });
    const sure = resolver({}, () => elicit('Sure?', z.object({ ok: z.boolean() })));
    mcp.tool('act', { resolve: { sure } }, () => text('done'));
    await using t = await connectTestClient(mcp, { answers: [{ question: 'Sure?', answer: decline() }] });
    const result = await t.client.callTool('act');
    expect(result.isError).toBe(true);
    const [key] = Object.keys(t.lastCall?.asked(1) ?? {});
    expect(key).toMatch(/^r0\.[A-Za-z0-9_-]{22}$/); // the node and the digest of the exact question
    expect(t.lastCall?.rounds[1]?.inputResponses).toEqual({ [key as string]: { action: 'decline' } });
  });

  it('a scripted key without a dot answers McpServer questions by their node, however they are worded', async () => {
    const mcp = new McpServer({ name: 'm', version: '1.0.0' });
    const sure = resolver({ args: ['what'] }, ({ what }: { what: string }) =>
      elicit(`Sure about ${what}?`, z.object({ ok: z.boolean() })),
    );
    mcp.tool('act', { input: z.object({ what: z.string() }), resolve: { sure } }, ({ what }, r) =>
      text(`${what}: ${r.sure.ok}`),
    );
    await using t = await connectTestClient(mcp, { answers: { r0: accept({ ok: true }) } });
    expect((await t.client.callTool('act', { what: 'a' })).content).toEqual([
      { type: 'text', text: 'a: true' },
    ]);
    expect((await t.client.callTool('act', { what: 'b' })).content).toEqual([
      { type: 'text', text: 'b: true' },
    ]);
    await using other = await connectTestClient(mcp, { answers: { r1: accept({ ok: true }) } });
    const error = await other.client.callTool('act', { what: 'a' }).catch((e: unknown) => e);
    expect(((error as Error).cause as Error).message).toMatch(/No scripted answer .*\{ "r0": … \}/);
  });

  it("a 2025-11-25 client: the server's requests mid-call are answered from the same script", async () => {
    const mcp = new McpServer({ name: 'm', version: '1.0.0' });
    const sure = resolver({}, () => elicit('Sure?', z.object({ ok: z.boolean() })));
    mcp.tool('act', { resolve: { sure } }, (_args, { sure }) => text(sure.ok ? 'done' : 'not done'));
    await using t = await connectTestClient(mcp, {
      client: { protocol: '2025-11-25' },
      answers: [{ question: 'Sure?', answer: accept({ ok: true }) }],
    });
    expect(t.client.protocolVersion).toBe('2025-11-25');
    expect((await t.client.callTool('act')).content).toEqual([{ type: 'text', text: 'done' }]);
    expect(t.lastCall?.rounds).toHaveLength(1); // the question travelled as a server request, not a round
    expect(t.lastCall?.result).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
  });

  it('auth: the server sees the principal on every request', async () => {
    const auth: AuthInfo = { subject: 'ann', clientId: 'c', issuer: 'https://issuer.example' };
    await using t = await connectTestClient(provisioner(), { auth });
    expect((await t.client.callTool('whoami')).content).toEqual([{ type: 'text', text: 'ann' }]);
    await using anonymous = await connectTestClient(provisioner());
    expect((await anonymous.client.callTool('whoami')).content).toEqual([{ type: 'text', text: 'nobody' }]);
  });

  it('records the notifications the server sends', async () => {
    await using t = await connectTestClient(provisioner());
    const progress: number[] = [];
    await t.client.callTool('count', {}, { onprogress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2, 3]);
    expect(t.notifications.map((n) => [n.method, n.params?.progress])).toEqual([
      ['notifications/progress', 1],
      ['notifications/progress', 2],
      ['notifications/progress', 3],
    ]);
  });

  it('clientInfo and other client options reach the client', async () => {
    await using t = await connectTestClient(provisioner(), {
      clientInfo: { name: 'my-host', version: '2.0.0' },
      client: { inputRequiredMaxRounds: 1 },
      answers: { q: accept({ value: 'v' }) },
    });
    expect(t.client.info).toEqual({ name: 'my-host', version: '2.0.0' });
    await expect(t.client.callTool('survey', { rounds: 3, tag: 't' })).rejects.toMatchObject({
      reason: 'rounds-exceeded',
    });
    expect(t.lastCall?.rounds[0]?.request.params?._meta).toMatchObject({
      'io.modelcontextprotocol/clientInfo': { name: 'my-host', version: '2.0.0' },
    });
  });

  it('close() closes the client and the link, once; await using does the same', async () => {
    const t = await connectTestClient(provisioner());
    await Promise.all([t.close(), t.close()]);
    await t.close();
    await expect(t.client.listTools()).rejects.toMatchObject({ reason: 'not-connected' });
    let kept: ReturnType<typeof connectTestClient> extends Promise<infer T> ? T : never;
    {
      await using inner = await connectTestClient(provisioner());
      kept = inner;
    }
    await expect(kept.client.listTools()).rejects.toBeInstanceOf(ClientError);
  });

  it('rejects bad arguments with the argument named', async () => {
    await expect(connectTestClient(null as never)).rejects.toThrow(
      '"server" expected a Server or McpServer (an object with connect()), got null',
    );
    await expect(connectTestClient({} as never)).rejects.toThrow(TypeError);
    await expect(connectTestClient(provisioner(), 'x' as never)).rejects.toThrow(
      '"options" expected an object, got string',
    );
    await expect(connectTestClient(provisioner(), { declare: 'roots' as never })).rejects.toThrow(
      '"declare" expected an array of question kinds, got string',
    );
    await expect(connectTestClient(provisioner(), { declare: ['forms' as never] })).rejects.toThrow(
      new RangeError('"declare" expected kinds among elicitation, sampling, roots, got "forms"'),
    );
    await expect(connectTestClient(provisioner(), { answers: 7 as never })).rejects.toThrow(TypeError);
    await expect(
      connectTestClient(provisioner(), { client: { inputRequiredMaxRounds: -1 } }),
    ).rejects.toThrow(RangeError);
  });

  it('when the server fails to connect, the error comes through and the link is closed', async () => {
    let end: Transport | undefined;
    const broken = {
      connect(transport: Transport) {
        end = transport;
        throw new Error('cannot serve');
      },
    };
    await expect(connectTestClient(broken)).rejects.toThrow('cannot serve');
    await expect(end?.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow(/closed/);
  });
});
