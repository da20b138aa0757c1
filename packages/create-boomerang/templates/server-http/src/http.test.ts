// The same flow over real HTTP: the server listens on a free loopback port and a client calls it through fetch.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@boomerang/client';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { listen } from '@boomerang/transport-http/node';
import { server } from './greeter.js';

test('greet over Streamable HTTP: one question, then the greeting', async () => {
  const endpoint = await listen(server, { port: 0 });
  const asked: string[] = [];
  const client = new Client(
    { name: 'test-host', version: '0.0.0' },
    {
      elicitation: async (params) => {
        asked.push(params.message);
        return { action: 'accept', content: { name: 'Ada' } };
      },
    },
  );
  try {
    await client.connect(new StreamableHttpClientTransport(endpoint.url));
    const result = await client.callTool('greet', {});
    assert.deepEqual(result.content, [{ type: 'text', text: 'Hello, Ada!' }]);
    assert.deepEqual(asked, ['What is your name?']);
  } finally {
    await client.close();
    await endpoint.close();
  }
});
