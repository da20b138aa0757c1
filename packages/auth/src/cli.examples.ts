// The README's CLI sign-in example: quoted verbatim from the first import on (typechecked, needs a real AS).
import { withOAuth } from '@boomerang/auth';
import { loopbackRedirect } from '@boomerang/auth/node';
import { Client } from '@boomerang/client';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';

/** Signs in through the user's browser on the first 401, then calls a tool as that user. */
export async function whoami(url = 'https://mcp.example.com/mcp'): Promise<string> {
  // A fixed port keeps the redirect URI stable for authorization servers that registered it.
  await using loopback = await loopbackRedirect({ port: 8765 });
  const fetch = withOAuth(globalThis.fetch, {
    redirectUri: loopback.redirectUri,
    authorize: loopback.authorize, // opens the browser, waits for the redirect back
    clientMetadataUrl: 'https://app.example.com/oauth/client.json', // used where the AS supports CIMD
    clientName: 'Notes CLI', // Dynamic Client Registration otherwise
  });
  // The sign-in runs inside connect() (the probe gets the 401): give a person the loopback's 5 minutes.
  const client = new Client({ name: 'notes-cli', version: '1.0.0' }, { connectTimeoutMs: 300_000 });
  await client.connect(new StreamableHttpClientTransport(url, { fetch }));
  try {
    const result = await client.callTool('whoami');
    return result.content.map((item) => (item.type === 'text' ? item.text : '')).join('');
  } finally {
    await client.close();
  }
}
