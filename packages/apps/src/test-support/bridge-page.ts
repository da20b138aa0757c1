// The official host side, in a page: `AppBridge` of @modelcontextprotocol/ext-apps (a test dependency only),
// constructed with a null client, its handlers forwarding to a Boomerang client. It renders a view a Boomerang
// server serves, read through that client.
import { Client, type ElicitAnswer } from '@boomerang/client';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

const events: { kind: string; detail: unknown }[] = [];
const formAnswers: ElicitAnswer[] = [];
let bridge: AppBridge | undefined;

const bridgeHarness = {
  events,
  formAnswers,
  async open(endpoint: string, resourceUri: string): Promise<void> {
    const client = new Client(
      { name: 'bridge-host', version: '1' },
      { elicitation: () => formAnswers.shift() ?? { action: 'cancel' } },
    );
    await client.connect(new StreamableHttpClientTransport(new URL(endpoint)));
    const read = await client.readResource(resourceUri);
    const content = read.contents[0];
    if (content === undefined || !('text' in content) || typeof content.text !== 'string')
      throw new Error('no view');
    events.push({ kind: 'mime', detail: content.mimeType });
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.srcdoc = content.text;
    document.body.append(frame);
    const target = frame.contentWindow;
    if (target === null) throw new Error('no frame window');
    bridge = new AppBridge(
      null,
      { name: 'official-bridge', version: '1' },
      { serverTools: {}, serverResources: {}, logging: {} },
    );
    bridge.oncalltool = (params) => client.callTool(params.name, params.arguments ?? {});
    bridge.onreadresource = (params) => client.readResource(params.uri);
    bridge.onsizechange = (size) => events.push({ kind: 'size', detail: size });
    bridge.oninitialized = () => events.push({ kind: 'initialized', detail: null });
    await bridge.connect(new PostMessageTransport(target, target));
  },
};

Object.assign(window, { bridgeHarness });
