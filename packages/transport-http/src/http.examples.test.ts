import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from './http.examples.js';
import { main as mountNode } from './node.examples.js';
import { headersFor, rpc } from './test-support/fixture.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('README examples', () => {
  it('greets over HTTP in two rounds', async () => {
    expect(await main()).toBe('Bonjour, Ada!');
  });

  it('mounts the endpoint in a node:http server of your own: /mcp greets in two rounds, the rest is the app', async () => {
    expect(await mountNode()).toEqual(['Hello, Ada!', 'the rest of the app']);
  });

  it('serves the web-standard module: 401 without a token, MCP with one, 403 for another Origin, 404 elsewhere', async () => {
    // The example declares `verifyToken` (yours to write): the test provides one that knows a single token.
    vi.stubGlobal('verifyToken', async (token: string) =>
      token === 'good-token' ? { token, subject: 'ada', scopes: ['mcp'] } : undefined,
    );
    const { default: app } = await import('./edge.examples.js');
    const list = rpc('tools/list');
    const post = (headers: Record<string, string>, url = 'https://mcp.example.com/mcp') =>
      app.fetch(
        new Request(url, {
          method: 'POST',
          headers: { ...Object.fromEntries(headersFor(list)), host: 'mcp.example.com', ...headers },
          body: JSON.stringify(list),
        }),
      );

    const anonymous = await post({});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('resource_metadata=');
    expect((await post({ authorization: 'Bearer wrong-token' })).status).toBe(401);

    const served = await post({ authorization: 'Bearer good-token', origin: 'https://app.example.com' });
    expect(served.status).toBe(200);
    const answer = (await served.json()) as { result: { tools: { name: string }[] } };
    expect(answer.result.tools.map((tool) => tool.name)).toContain('greet');

    const foreign = await post({ authorization: 'Bearer good-token', origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect((await post({}, 'https://mcp.example.com/elsewhere')).status).toBe(404);
  });

  it('README.md quotes every example verbatim (from its first import on)', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    for (const example of ['http.examples.ts', 'edge.examples.ts', 'node.examples.ts']) {
      const source = await readFile(new URL(example, import.meta.url), 'utf8');
      expect(readme, `${example} is not quoted in README.md`).toContain(
        source.slice(source.search(/^import /m)), // from the first import statement, not a comment's word
      );
    }
  });
});
