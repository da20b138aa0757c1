// `subscriptions/listen` streams held open through the fleet for the whole run, each counting what it receives.
// When a stream ends (its instance restarted: a graceful end; its bus dropped: -32603; its instance was killed:
// the connection cut) the listener listens again, as a client should, and the new stream may land on another
// instance. `upstream` says where the current one is (nginx's `X-Fleet-Upstream` on the stream's answer).
import type { JSONRPCNotification, JSONRPCRequest } from '@boomerang/protocol';
import { TASKS_EXTENSION } from '@boomerang/tasks';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';

/** One listener: what it asked for, where it is, what it got. */
export interface Listener {
  readonly label: string;
  /** The instance serving the current stream (`127.0.0.1:port`), once acknowledged. */
  readonly upstream: string | undefined;
  /** True while a stream is acknowledged and open. */
  readonly live: boolean;
  /**
   * Notifications received, by method (the acknowledgements not counted); those with a `status` (the tasks') also
   * by `method:status`.
   */
  readonly counts: Readonly<Record<string, number>>;
  /** Streams that ended and were opened again, by why they ended. */
  readonly ends: Readonly<Record<string, number>>;
  stop(): Promise<void>;
}

let nextId = 1;

/**
 * Opens a listener on `url` for `filter` (a tools listener by default; `taskIds` adds the tasks extension) and
 * keeps it open until `stop()`.
 */
export function startListener(
  label: string,
  url: string,
  filter: Record<string, unknown> = { toolsListChanged: true },
): Listener {
  const direct = new URL(url).host;
  const counts: Record<string, number> = {};
  const ends: Record<string, number> = {};
  const controller = new AbortController();
  const state = { upstream: undefined as string | undefined, live: false };
  let pending: string | undefined;
  const fetchSeen: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    pending = response.headers.get('x-fleet-upstream')?.split(',').at(-1)?.trim() ?? direct;
    return response;
  };
  const transport = new StreamableHttpClientTransport(url, { fetch: fetchSeen });
  const capabilities = 'taskIds' in filter ? { extensions: { [TASKS_EXTENSION]: {} } } : {};
  const loop = (async () => {
    while (!controller.signal.aborted) {
      const request: JSONRPCRequest = {
        jsonrpc: '2.0',
        id: `${label}-${nextId++}`,
        method: 'subscriptions/listen',
        params: {
          notifications: filter,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': capabilities,
          },
        },
      };
      let why = 'graceful';
      try {
        const response = await transport.request(request, {
          signal: controller.signal,
          onMessage: (message) => {
            const notification = message as JSONRPCNotification;
            if (notification.method === 'notifications/subscriptions/acknowledged') {
              state.upstream = pending;
              state.live = true;
              return;
            }
            counts[notification.method] = (counts[notification.method] ?? 0) + 1;
            const status = (notification.params as { status?: unknown } | undefined)?.status;
            if (typeof status === 'string') {
              const key = `${notification.method}:${status}`;
              counts[key] = (counts[key] ?? 0) + 1;
            }
          },
        });
        if ('error' in response) why = `error ${(response.error as { code: number }).code}`;
      } catch {
        why = 'cut';
      }
      state.live = false;
      if (controller.signal.aborted) break;
      ends[why] = (ends[why] ?? 0) + 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    label,
    get upstream() {
      return state.upstream;
    },
    get live() {
      return state.live;
    },
    counts,
    ends,
    async stop() {
      controller.abort(new Error('stopped'));
      await loop;
      await transport.close();
    },
  };
}
