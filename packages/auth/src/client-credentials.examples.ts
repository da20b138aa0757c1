// The README's client-credentials example: quoted from the first import on; run by machine.examples.test.ts.
import { clientCredentials, type FetchLike, withOAuth } from '@boomerang/auth';
import { Client } from '@boomerang/client';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';

/** A nightly job with no one at the keyboard: signs in as its own service account, then exports a report. */
export async function nightlyReport(url: string, clientSecret: string, fetch?: FetchLike): Promise<string> {
  const oauth = withOAuth(fetch, {
    // client_secret_basic, or client_secret_post when that is all the authorization server lists
    grant: clientCredentials({ issuer: 'https://as.example', clientId: 'reports-bot', clientSecret }),
  });
  const client = new Client({ name: 'nightly-report', version: '1.0.0' });
  await client.connect(new StreamableHttpClientTransport(url, { fetch: oauth }));
  try {
    const result = await client.callTool('export', { format: 'csv' });
    return result.content.map((item) => (item.type === 'text' ? item.text : '')).join('');
  } finally {
    await client.close();
  }
}
