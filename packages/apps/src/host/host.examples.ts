// The README's host example: a browser page that renders the shop's views and lets the picker answer its
// question; the Chromium tests bundle it into their host page.
// #region host
import { Client, type ElicitationCallback } from '@boomerang/client';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { APPS_CLIENT_CAPABILITIES, AppHost } from './index.js';

/**
 * Connects to the MCP endpoint and renders Apps in `container`. `sandboxUrl` serves `sandboxProxyHtml()` from
 * another origin; `showForm` is the host's own form, for questions without a view.
 */
export async function startHost(
  endpoint: URL,
  sandboxUrl: string,
  container: Element,
  showForm: ElicitationCallback,
) {
  const host: AppHost = new AppHost({
    client: (): Client => client,
    sandboxUrl,
    onMessage: (params) => console.log('the view says', params.content),
  });
  const client: Client = new Client(
    { name: 'chat', version: '1.0.0' },
    { capabilities: APPS_CLIENT_CAPABILITIES, elicitation: host.elicitation(showForm, () => container) },
  );
  await client.connect(new StreamableHttpClientTransport(endpoint));
  return { client, host };
}
// #endregion host
