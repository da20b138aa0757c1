// A browser-only project (no @types/node; lib ES2022 + DOM + ESNext.Disposable): the client and the fetch
// transport typecheck against the published declarations without skipLibCheck.
import { Client } from '@boomerang/client';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';

export async function greet(url: string): Promise<string> {
  const client = new Client(
    { name: 'web-host', version: '1.0.0' },
    { elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
  );
  await client.connect(new StreamableHttpClientTransport(url));
  try {
    const result = await client.callTool('greet');
    return result.content[0]?.type === 'text' ? result.content[0].text : '';
  } finally {
    await client.close();
  }
}
