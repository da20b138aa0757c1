// A Server with subscriptions/listen on stdio. Tools: `change` publishes tools/list_changed, `end` ends every
// subscription gracefully (server.close()). Subscriptions opening and closing are logged on stderr.
import { createNotificationHub, Server } from '@boomerang/server';
import { StdioServerTransport } from '@boomerang/transport-stdio';

const hub = createNotificationHub();
const source = {
  publish: hub.publish,
  subscribe(filter, listener) {
    console.error('listen-server: subscribed');
    const stop = hub.subscribe(filter, listener);
    return () => {
      console.error('listen-server: unsubscribed');
      stop();
    };
  },
};
const tools = ['change', 'end'].map((name) => ({ name, inputSchema: { type: 'object' } }));
const server = new Server(
  { name: 'stdio-listen', version: '1.0.0' },
  {
    notifications: source,
    onListTools: () => ({ tools }),
    onCallTool: async ({ name }) => {
      if (name === 'change') await server.notifyListChanged('tools');
      if (name === 'end') await server.close();
      return { content: [{ type: 'text', text: name }] };
    },
  },
);
await server.connect(new StdioServerTransport());
