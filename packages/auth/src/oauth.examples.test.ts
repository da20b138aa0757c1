import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseBearerChallenge } from './challenge.js';
import example, { metadata } from './oauth.examples.js';

describe('README examples', () => {
  it('the protected server answers 401 with its metadata URL, and serves the metadata', async () => {
    const response = await example.fetch(
      new Request('https://mcp.example.com/mcp', { method: 'POST', headers: { host: 'mcp.example.com' } }),
    );
    expect(response.status).toBe(401);
    expect(parseBearerChallenge(response.headers.get('www-authenticate'))).toEqual({
      resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      scope: ['notes:read'],
    });
    const document = await (await example.fetch(new Request(metadata.url))).json();
    expect(document).toMatchObject({ authorization_servers: ['https://auth.example.com'] });
  });

  it('README.md quotes every example verbatim (from its first import on)', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    for (const example of [
      'oauth.examples.ts',
      'cli.examples.ts',
      'headless.examples.ts',
      'client-credentials.examples.ts',
      'private-key-jwt.examples.ts',
      'workload.examples.ts',
      'enterprise.examples.ts',
      'dpop-server.examples.ts',
    ]) {
      const source = await readFile(new URL(example, import.meta.url), 'utf8');
      expect(readme, `${example} is not quoted in README.md`).toContain(
        source.slice(source.search(/^import /m)), // from the first import statement
      );
    }
  });
});
