// One suite for every way of mounting the endpoint: whatever serves it (a framework on a socket, a route handler
// called with Requests), the same MRTR call, the same 413 and the same 403 come out.
import { Client } from '@boomerang/client';
import { type FetchLike, StreamableHttpClientTransport } from '@boomerang/transport-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** An endpoint under test: where it is, how to send it one raw request, and how to stop it. */
export interface Mounted {
  /** The MCP endpoint's URL. */
  readonly url: URL;
  /** How the client reaches it (through `fetch` when there is no socket, as for a route handler). */
  readonly fetch?: FetchLike | undefined;
  /** Sends one request with exactly these headers (a Host of its own included) and reads the answer. */
  send(request: RawRequest): Promise<RawAnswer>;
  close(): Promise<void>;
}

export interface RawRequest {
  readonly method?: string | undefined;
  /** A path other than the endpoint's (and its query), for the rest of the app. */
  readonly path?: string | undefined;
  readonly headers?: Record<string, string> | undefined;
  readonly body?: string | undefined;
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

/** What the suite needs to know of a recipe. */
export interface MountOptions {
  /** The recipe's `maxBodyBytes`: the suite sends a body one and a half times as large. */
  readonly maxBodyBytes: number;
  /** A path of the rest of the app and what it answers to GET, to show the app still serves it. */
  readonly other?: { readonly path: string; readonly body: string } | undefined;
  /** How long `start` may take (a child process of another runtime: longer than the default hook timeout). */
  readonly startTimeoutMs?: number | undefined;
}

/** The headers a 2026-07-28 client sends with a `tools/list`. */
export const listHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/list',
};

/** A `tools/list` request, padded with `padding` characters in its params. */
export function listBody(padding = 0): string {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const params = padding > 0 ? { _meta, padding: 'x'.repeat(padding) } : { _meta };
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params });
}

/** Greets through `mounted` with the Boomerang Client, answering the name question with `Ada`. */
export async function greet(mounted: Mounted, args: { name?: string } = {}) {
  const questions: string[] = [];
  const client = new Client(
    { name: 'frameworks-test', version: '1.0.0' },
    {
      elicitation: async (params) => {
        questions.push(params.message);
        return { action: 'accept', content: { name: 'Ada' } };
      },
    },
  );
  await client.connect(new StreamableHttpClientTransport(mounted.url, { fetch: mounted.fetch }));
  try {
    const result = await client.callTool('greet', args);
    const text = result.content.map((item) => (item.type === 'text' ? item.text : '')).join('');
    return { text, questions };
  } finally {
    await client.close();
  }
}

/** The suite: an MRTR call, a 413, a 403 from the Host guard, and the rest of the app untouched. */
export function mountSuite(name: string, start: () => Promise<Mounted>, options: MountOptions): void {
  describe(name, () => {
    let mounted: Mounted;
    beforeAll(async () => {
      mounted = await start();
    }, options.startTimeoutMs);
    afterAll(async () => {
      await mounted?.close();
    });

    it('runs an MRTR call: the tool asks one question, the Client answers it and retries', async () => {
      expect(await greet(mounted)).toEqual({ text: 'Hello, Ada!', questions: ['What is your name?'] });
      expect(await greet(mounted, { name: 'Grace' })).toEqual({ text: 'Hello, Grace!', questions: [] });
    });

    it('answers 413 with a JSON-RPC error to a body over maxBodyBytes, and serves on', async () => {
      const padding = Math.ceil(options.maxBodyBytes * 1.5);
      const tooLarge = await mounted.send({ headers: listHeaders, body: listBody(padding) });
      expect(tooLarge.status).toBe(413);
      expect(JSON.parse(tooLarge.body)).toEqual({
        jsonrpc: '2.0',
        error: { code: -32600, message: `Payload Too Large: the body exceeds ${options.maxBodyBytes} bytes` },
      });
      const fits = await mounted.send({ headers: listHeaders, body: listBody(options.maxBodyBytes / 2) });
      expect(fits.status).toBe(200);
      expect(JSON.parse(fits.body).result.tools.map((tool: { name: string }) => tool.name)).toEqual([
        'greet',
      ]);
    });

    it('answers 403 to a Host that is not allowed (DNS rebinding), and serves on', async () => {
      const rebound = await mounted.send({
        headers: { ...listHeaders, host: `evil.example:${mounted.url.port || '80'}` },
        body: listBody(),
      });
      expect(rebound.status).toBe(403);
      expect(JSON.parse(rebound.body).error).toEqual({
        code: -32600,
        message: `Forbidden: Host "evil.example:${mounted.url.port || '80'}" is not allowed`,
      });
      const crossSite = await mounted.send({
        headers: { ...listHeaders, origin: 'https://evil.example' },
        body: listBody(),
      });
      expect(crossSite.status).toBe(403);
      expect((await mounted.send({ headers: listHeaders, body: listBody() })).status).toBe(200);
    });

    it('answers the methods it does not serve (405) and leaves the rest of the app alone', async () => {
      const put = await mounted.send({ method: 'PUT', headers: listHeaders, body: listBody() });
      expect(put.status).toBe(405); // the endpoint's own (Allow: POST), or the framework's for a route it lacks
      const other = options.other;
      if (other !== undefined) {
        const answer = await mounted.send({ method: 'GET', path: other.path });
        expect([answer.status, answer.body]).toEqual([200, other.body]);
      }
    });
  });
}
