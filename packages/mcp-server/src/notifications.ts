import type {
  PromptListChangedNotification,
  ResourceListChangedNotification,
  ResourceUpdatedNotification,
  ToolListChangedNotification,
} from '@boomerang/protocol';
import type { LogFn } from '@boomerang/server';

/**
 * A notification the server has for subscribers, as the JSON-RPC message a `subscriptions/listen` stream
 * sends: a list changed, or one resource was updated.
 */
export type McpServerNotification =
  | ToolListChangedNotification
  | PromptListChangedNotification
  | ResourceListChangedNotification
  | ResourceUpdatedNotification;

/** Fans notifications out to listeners; a listener that throws is logged and never stops the others. */
export class Notifier {
  readonly #listeners = new Set<(notification: McpServerNotification) => void>();

  constructor(readonly warn: LogFn) {}

  add(listener: (notification: McpServerNotification) => void): () => void {
    if (typeof listener !== 'function')
      throw new TypeError(`"listener" expected a function, got ${typeof listener}`);
    const own = (notification: McpServerNotification) => listener(notification);
    this.#listeners.add(own);
    return () => {
      this.#listeners.delete(own);
    };
  }

  listChanged(list: 'tools' | 'prompts' | 'resources'): void {
    this.#emit({ jsonrpc: '2.0', method: `notifications/${list}/list_changed` } as McpServerNotification);
  }

  resourceUpdated(uri: string): void {
    this.#emit({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
  }

  #emit(notification: McpServerNotification): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(notification);
      } catch (error) {
        this.warn(`a notification listener threw on ${notification.method}`, { error });
      }
    }
  }
}
