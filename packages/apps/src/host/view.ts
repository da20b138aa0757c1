// One App view on the host page: the outer iframe (the sandbox proxy), the view↔host JSON-RPC over postMessage,
// and the proxying of `tools/call` and `resources/read` to the server through the Boomerang client (the client's
// MRTR loop included). Every message is checked where it enters: its window (the proxy's frame), its origin (the
// proxy's), its shape and size; anything else is dropped or answered with a JSON-RPC error, and the view goes on.
import type { Client } from '@boomerang/client';
import { type CallToolResult, McpError, type Tool } from '@boomerang/protocol';
import {
  APPS_PROTOCOL_VERSION,
  type AppResourceMeta,
  ELICITATION_RESULT_METHOD,
  toolVisibility,
} from '../wire.js';
import { classify, isRecord, type RpcError, type RpcId, rpcErrorOf } from './rpc.js';
import { SANDBOX_PROXY_READY, SANDBOX_RESOURCE_READY, SANDBOX_VIEW_NAVIGATED } from './sandbox-proxy.js';

/** What the host needs of a Boomerang client: calls, reads and the tool list (for visibility). */
export type AppHostClient = Pick<Client, 'callTool' | 'readResource' | 'listTools'>;

/** What the host does with what a view asks of the user or the model; each hook may throw to refuse. */
export interface AppViewHooks {
  /** `ui/open-link` (an `http:`/`https:` URL). Default: `window.open(url, '_blank', 'noopener,noreferrer')`. */
  readonly onOpenLink?: ((url: URL, view: AppView) => void | Promise<void>) | undefined;
  /** `ui/message`: content for the conversation. Without it the host answers `{ isError: true }`. */
  readonly onMessage?: ((params: Record<string, unknown>, view: AppView) => void | Promise<void>) | undefined;
  /** `ui/update-model-context`. Without it the request is refused (-32000). */
  readonly onModelContext?:
    | ((params: Record<string, unknown>, view: AppView) => void | Promise<void>)
    | undefined;
  /** `notifications/message` (a log line from the view). */
  readonly onLog?: ((params: Record<string, unknown>, view: AppView) => void) | undefined;
  /** `ui/notifications/size-changed`, after the frame was resized. */
  readonly onSizeChange?: ((size: { width?: number; height?: number }, view: AppView) => void) | undefined;
  /** A message dropped or refused, or a view that could not be mounted, with why (for the host's audit log). */
  readonly onReject?: ((reason: string, view: AppView | undefined) => void) | undefined;
}

/** Limits on what one view may send. */
export interface AppViewLimits {
  /** Largest message, in characters of JSON. Default 1,048,576. */
  readonly maxMessageBytes?: number | undefined;
  /** Requests the view may have waiting at once (tool calls take long). Default 16. */
  readonly maxInFlight?: number | undefined;
  /** Tallest the frame grows on `size-changed`, in pixels. Default 2,000. */
  readonly maxHeight?: number | undefined;
}

/** What `AppHost` hands a view it mounts. */
export interface AppViewInit {
  readonly resourceUri: string;
  readonly html: string;
  readonly meta: AppResourceMeta;
  readonly frame: HTMLIFrameElement;
  readonly sandboxOrigin: string;
  readonly client: AppHostClient;
  readonly hostInfo: { readonly name: string; readonly version: string };
  readonly hostContext: Record<string, unknown>;
  readonly hooks: AppViewHooks;
  readonly limits: AppViewLimits;
}

/** A check of a view's answer to the question it renders: the value to send the server, or a reason to refuse. */
export type AnswerCheck = (
  params: Record<string, unknown>,
) => Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; problem: string }>;

const TEARDOWN_WAIT_MS = 1_000;

/**
 * A mounted view. Notifications the host sends before the view said `initialized` are queued (the specification:
 * nothing reaches a view before that). `close()` asks the view (`ui/resource-teardown`), then removes the frame.
 */
export class AppView {
  /** The `ui://` URI of the view. */
  readonly resourceUri: string;
  /** The outer iframe (the sandbox proxy); the host places and styles it. */
  readonly frame: HTMLIFrameElement;
  /** Settles with the reason once the view is closed (by the host, the view, or a navigation). */
  readonly closed: Promise<string>;
  readonly #init: AppViewInit;
  readonly #window: Window;
  readonly #queue: Record<string, unknown>[] = [];
  readonly #pending = new Map<RpcId, (reply: Record<string, unknown>) => void>();
  readonly #inFlight = new Set<RpcId>();
  readonly #abort = new AbortController();
  #hostContext: Record<string, unknown>;
  #proxyReady = false;
  #helloDone = false;
  #initialized = false;
  #nextId = 1;
  #tools: { at: number; byName: Map<string, Tool> } | undefined;
  #answer: { check: AnswerCheck; resolve: (value: Record<string, unknown>) => void } | undefined;
  #close!: (reason: string) => void;
  #isClosed = false;
  readonly #listener = (event: MessageEvent) => this.#receive(event);

  /** Mounted by `AppHost.render()`; not built by hand. */
  constructor(init: AppViewInit) {
    this.#init = init;
    this.resourceUri = init.resourceUri;
    this.frame = init.frame;
    this.#hostContext = { ...init.hostContext };
    this.closed = new Promise((resolve) => {
      this.#close = resolve;
    });
    const view = init.frame.ownerDocument.defaultView;
    if (view === null) throw new TypeError('the frame must be in a document with a window');
    this.#window = view;
    view.addEventListener('message', this.#listener);
  }

  /** Whether the view completed `ui/initialize` and sent `ui/notifications/initialized`. */
  get initialized(): boolean {
    return this.#initialized;
  }

  /** `ui/notifications/tool-input`: the complete arguments of the tool call the view renders. */
  sendToolInput(args: Record<string, unknown>): void {
    this.#notify('ui/notifications/tool-input', { arguments: args });
  }

  /** `ui/notifications/tool-input-partial`: arguments streamed so far. */
  sendToolInputPartial(args: Record<string, unknown>): void {
    this.#notify('ui/notifications/tool-input-partial', { arguments: args });
  }

  /** `ui/notifications/tool-result`: the tool's result. */
  sendToolResult(result: CallToolResult): void {
    this.#notify('ui/notifications/tool-result', result);
  }

  /** `ui/notifications/tool-cancelled`. */
  sendToolCancelled(reason?: string): void {
    this.#notify('ui/notifications/tool-cancelled', reason === undefined ? {} : { reason });
  }

  /** Merges `changes` into the host context and sends `ui/notifications/host-context-changed`. */
  setHostContext(changes: Record<string, unknown>): void {
    this.#hostContext = { ...this.#hostContext, ...changes };
    this.#notify('ui/notifications/host-context-changed', changes);
  }

  /**
   * Waits for the view's answer to the question it renders (`ui/elicitation-result`), checked by `check`; a
   * refused answer is `-32602` to the view, which may send another. Settles `{ action: 'cancel' }` when the view
   * closes or `signal` aborts first.
   */
  answer(check: AnswerCheck, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      const cancel = () => resolve({ action: 'cancel' });
      if (signal?.aborted) return cancel();
      signal?.addEventListener('abort', cancel, { once: true });
      void this.closed.then(cancel);
      this.#answer = { check, resolve };
    });
  }

  /**
   * Tears the view down: `ui/resource-teardown` (waiting up to a second for its reply, when it was initialized),
   * then the frame is removed, the listener dropped and the view's requests in flight aborted. Idempotent.
   */
  async close(reason = 'closed by the host'): Promise<void> {
    if (this.#isClosed) return;
    if (this.#initialized) {
      await Promise.race([
        this.#request('ui/resource-teardown', { reason }),
        new Promise((resolve) => setTimeout(resolve, TEARDOWN_WAIT_MS)),
      ]);
    }
    this.#shutdown(reason);
  }

  #shutdown(reason: string): void {
    if (this.#isClosed) return;
    this.#isClosed = true;
    this.#window.removeEventListener('message', this.#listener);
    this.#abort.abort(new Error(reason));
    this.#pending.clear();
    this.frame.remove();
    this.#close(reason);
  }

  #post(message: Record<string, unknown>): void {
    if (this.#isClosed) return;
    this.frame.contentWindow?.postMessage(message, this.#init.sandboxOrigin);
  }

  #notify(method: string, params: unknown): void {
    const message = { jsonrpc: '2.0', method, params };
    if (this.#initialized) this.#post(message);
    else this.#queue.push(message);
  }

  #request(method: string, params: unknown): Promise<Record<string, unknown>> {
    const id = `host-${this.#nextId++}`;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#post({ jsonrpc: '2.0', id, method, params });
    });
  }

  #reject(reason: string): void {
    this.#init.hooks.onReject?.(reason, this);
  }

  #receive(event: MessageEvent): void {
    // Only the proxy's frame, from the proxy's origin: another frame, the page itself, or a window the view
    // opened never gets here.
    if (event.source !== this.frame.contentWindow || event.source === null) return;
    if (event.origin !== this.#init.sandboxOrigin) {
      this.#reject(`message from origin ${event.origin}`);
      return;
    }
    const message = classify(event.data, this.#init.limits.maxMessageBytes ?? 1_048_576);
    if (message.kind === 'request') void this.#serve(message.id, message.method, message.params);
    else if (message.kind === 'notification') this.#notification(message.method, message.params);
    else if (message.kind === 'response') {
      const resolve = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      resolve?.(isRecord(message.result) ? message.result : {});
    } else {
      this.#reject(`invalid message: ${message.reason}`);
      if (message.id !== null)
        this.#error(message.id, { code: -32600, message: `Invalid Request: ${message.reason}` });
    }
  }

  #notification(method: string, params: unknown): void {
    if (method === SANDBOX_PROXY_READY && !this.#proxyReady) {
      this.#proxyReady = true;
      const { html, meta } = this.#init;
      const resource = { html, csp: meta.csp, permissions: meta.permissions };
      this.#post({ jsonrpc: '2.0', method: SANDBOX_RESOURCE_READY, params: resource });
    } else if (method === SANDBOX_VIEW_NAVIGATED) {
      this.#shutdown('the view navigated away from its document');
    } else if (method === 'ui/notifications/initialized' && this.#helloDone && !this.#initialized) {
      this.#initialized = true;
      for (const queued of this.#queue.splice(0)) this.#post(queued);
    } else if (method === 'ui/notifications/size-changed') {
      this.#resize(params);
    } else if (method === 'ui/notifications/request-teardown') {
      void this.close('requested by the view');
    } else if (method === 'notifications/message' && isRecord(params)) {
      this.#init.hooks.onLog?.(params, this);
    }
  }

  #resize(params: unknown): void {
    if (!isRecord(params)) return;
    const size: { width?: number; height?: number } = {};
    const { width, height } = params;
    if (typeof height === 'number' && Number.isFinite(height) && height >= 0) {
      size.height = Math.min(Math.ceil(height), this.#init.limits.maxHeight ?? 2_000);
      this.frame.style.height = `${size.height}px`;
    }
    if (typeof width === 'number' && Number.isFinite(width) && width >= 0) size.width = Math.ceil(width);
    this.#init.hooks.onSizeChange?.(size, this);
  }

  async #serve(id: RpcId, method: string, params: unknown): Promise<void> {
    if (this.#inFlight.has(id))
      return this.#error(id, { code: -32600, message: 'Invalid Request: id in use' });
    if (this.#inFlight.size >= (this.#init.limits.maxInFlight ?? 16)) {
      this.#reject(`too many requests in flight (${method})`);
      return this.#error(id, { code: -32000, message: 'Too many requests in flight' });
    }
    this.#inFlight.add(id);
    try {
      const result = await this.#handle(method, params);
      this.#post({ jsonrpc: '2.0', id, result });
    } catch (error) {
      const wire = rpcErrorOf(error);
      if (wire.code === -32603) this.#reject(`${method} failed: ${String(error)}`);
      this.#error(id, wire);
    } finally {
      this.#inFlight.delete(id);
    }
  }

  #error(id: RpcId, error: RpcError): void {
    this.#post({ jsonrpc: '2.0', id, error });
  }

  async #handle(method: string, params: unknown): Promise<Record<string, unknown>> {
    if (method === 'ping') return {};
    if (method === 'ui/initialize') return this.#hello(params);
    if (!this.#helloDone) throw new McpError(-32600, 'Invalid Request: ui/initialize first');
    const record = params === undefined ? {} : params;
    if (!isRecord(record)) throw new McpError(-32602, 'Invalid params: expected an object');
    switch (method) {
      case 'tools/call':
        return this.#callTool(record);
      case 'resources/read':
        return this.#readResource(record);
      case 'ui/open-link':
        return this.#openLink(record);
      case 'ui/message':
        return this.#message(record);
      case 'ui/update-model-context':
        return this.#modelContext(record);
      case 'ui/request-display-mode':
        return { mode: this.#hostContext.displayMode ?? 'inline' };
      case ELICITATION_RESULT_METHOD:
        return this.#answered(record);
      default:
        throw new McpError(-32601, `Method not found: ${method}`);
    }
  }

  #hello(params: unknown): Record<string, unknown> {
    if (!isRecord(params) || typeof params.protocolVersion !== 'string')
      throw new McpError(-32602, 'Invalid params: ui/initialize needs protocolVersion');
    this.#helloDone = true;
    const { hooks, meta } = this.#init;
    const capabilities: Record<string, unknown> = {
      openLinks: {},
      serverTools: {},
      serverResources: {},
      logging: {},
      // The CSP the proxy applies; permissions are not delegated (the proxy frame is given no `allow`).
      sandbox: meta.csp ? { csp: meta.csp } : {},
    };
    if (hooks.onMessage) capabilities.message = { text: {} };
    if (hooks.onModelContext) capabilities.updateModelContext = { text: {} };
    return {
      protocolVersion: APPS_PROTOCOL_VERSION,
      hostInfo: this.#init.hostInfo,
      hostCapabilities: capabilities,
      hostContext: this.#hostContext,
    };
  }

  async #toolsByName(refresh: boolean): Promise<Map<string, Tool>> {
    if (this.#tools !== undefined && !(refresh && Date.now() - this.#tools.at > 1_000))
      return this.#tools.byName;
    const byName = new Map<string, Tool>();
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const listed = await this.#init.client.listTools(cursor === undefined ? {} : { cursor });
      for (const tool of listed.tools) byName.set(tool.name, tool);
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    this.#tools = { at: Date.now(), byName };
    return byName;
  }

  async #callTool(params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { name, arguments: args } = params;
    if (typeof name !== 'string') throw new McpError(-32602, 'Invalid params: tools/call needs a tool name');
    if (args !== undefined && !isRecord(args))
      throw new McpError(-32602, 'Invalid params: arguments must be an object');
    const tool = (await this.#toolsByName(false)).get(name) ?? (await this.#toolsByName(true)).get(name);
    // The specification: a host rejects calls from views to tools whose visibility lacks "app".
    if (tool === undefined || !toolVisibility(tool).includes('app')) {
      this.#reject(`tools/call of '${name}', which is not callable by apps`);
      throw new McpError(-32602, `Tool '${name}' is not available to this app`);
    }
    const result = await this.#init.client.callTool(name, args, { signal: this.#abort.signal });
    return { ...result };
  }

  async #readResource(params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { uri } = params;
    if (typeof uri !== 'string') throw new McpError(-32602, 'Invalid params: resources/read needs a uri');
    return { ...(await this.#init.client.readResource(uri, { signal: this.#abort.signal })) };
  }

  async #openLink(params: Record<string, unknown>): Promise<Record<string, unknown>> {
    let url: URL;
    try {
      url = new URL(String(params.url));
    } catch {
      throw new McpError(-32602, 'Invalid URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new McpError(-32602, 'Invalid URL');
    const { onOpenLink } = this.#init.hooks;
    try {
      if (onOpenLink) await onOpenLink(url, this);
      else this.#window.open(url.href, '_blank', 'noopener,noreferrer');
    } catch {
      throw new McpError(-32000, 'Link opening denied');
    }
    return {};
  }

  async #message(params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { onMessage } = this.#init.hooks;
    if (params.role !== 'user' || !Array.isArray(params.content))
      throw new McpError(-32602, 'Invalid message format');
    if (!onMessage) return { isError: true };
    try {
      await onMessage(params, this);
      return {};
    } catch {
      return { isError: true };
    }
  }

  async #modelContext(params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { onModelContext } = this.#init.hooks;
    if (!onModelContext) throw new McpError(-32000, 'Context update denied');
    try {
      await onModelContext(params, this);
    } catch {
      throw new McpError(-32000, 'Context update denied');
    }
    return {};
  }

  async #answered(params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const pending = this.#answer;
    if (pending === undefined) throw new McpError(-32601, `Method not found: ${ELICITATION_RESULT_METHOD}`);
    const checked = await pending.check(params);
    if (!checked.ok) throw new McpError(-32602, `Invalid params: ${checked.problem}`);
    if (this.#answer !== pending) throw new McpError(-32600, 'Invalid Request: the question was answered');
    this.#answer = undefined;
    pending.resolve(checked.value);
    return {};
  }
}
