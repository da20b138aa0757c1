// The browser host of MCP Apps over a Boomerang client: reads a view (`resources/read`, checked to be
// `text/html;profile=mcp-app`), mounts it behind the sandbox proxy, renders tool calls with their views, and
// answers elicitations that name a view with that view (the form otherwise).
import type { ElicitationCallback, InputRequestContext } from '@boomerang/client';
import type {
  CallToolResult,
  ClientCapabilities,
  ElicitRequestParams,
  ElicitResult,
} from '@boomerang/protocol';
import { validate } from '@boomerang/protocol';
import { fromJsonSchema } from '@boomerang/protocol/json-schema';
import {
  APP_MIME_TYPE,
  type AppElicitation,
  type AppResourceMeta,
  elicitationViewUri,
  isUiUri,
  toolViewUri,
  UI_EXTENSION,
  uiMetaOf,
} from '../wire.js';
import { isRecord } from './rpc.js';
import {
  type AnswerCheck,
  type AppHostClient,
  AppView,
  type AppViewHooks,
  type AppViewLimits,
} from './view.js';

/** Options of {@link AppHost}. */
export interface AppHostOptions extends AppViewHooks, AppViewLimits {
  /** The Boomerang client of the server whose views this host renders (a function: resolved on first use). */
  readonly client: AppHostClient | (() => AppHostClient);
  /** The sandbox proxy page (`sandboxProxyHtml()`), served from an origin other than the host page's. */
  readonly sandboxUrl: string | URL;
  /** `hostInfo` of `ui/initialize`. Default `{ name: 'boomerang-apps-host', version: '1' }`. */
  readonly hostInfo?: { readonly name: string; readonly version: string } | undefined;
  /** Initial `hostContext` (theme, styles, locale…), merged over the host's own (`displayMode: 'inline'`…). */
  readonly hostContext?: Record<string, unknown> | undefined;
  /** The document frames are created in. Default: the global `document`. */
  readonly document?: Document | undefined;
}

/** What {@link AppHost.render} mounts. */
export interface RenderOptions {
  /** The `ui://` view to read and mount. */
  readonly resourceUri: string;
  /** Members added to the view's `hostContext` (`toolInfo`, `elicitation`…). */
  readonly hostContext?: Record<string, unknown> | undefined;
  /** Aborts the read and closes the view. */
  readonly signal?: AbortSignal | undefined;
}

/** The client capabilities of a host that renders Apps: merge into `new Client(info, { capabilities })`. */
export const APPS_CLIENT_CAPABILITIES: ClientCapabilities = {
  extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE], elicitation: {} } },
};

/**
 * Renders MCP App views in a browser page for one server (one Boomerang client). Each view gets an outer iframe
 * on the sandbox proxy's origin (`sandbox="allow-scripts allow-same-origin"`, as the specification requires of
 * it), which loads the view into an inner, origin-less frame under the view's CSP.
 */
export class AppHost {
  readonly #options: AppHostOptions;
  readonly #sandbox: URL;

  /**
   * @throws TypeError when `sandboxUrl` is not an absolute http(s) URL, or is on the host page's own origin (the
   * specification: host and sandbox MUST have different origins).
   */
  constructor(options: AppHostOptions) {
    this.#options = options;
    const sandbox = new URL(String(options.sandboxUrl));
    if (sandbox.protocol !== 'https:' && sandbox.protocol !== 'http:')
      throw new TypeError(`"sandboxUrl" expected an http(s) URL, got ${sandbox.href}`);
    const doc = options.document ?? globalThis.document;
    if (doc?.location !== undefined && sandbox.origin === doc.location.origin)
      throw new TypeError('"sandboxUrl" must be on another origin than the host page');
    this.#sandbox = sandbox;
  }

  get #client(): AppHostClient {
    const { client } = this.#options;
    return typeof client === 'function' ? client() : client;
  }

  /**
   * Reads the view at `resourceUri` through the client and mounts it in `container`. The view starts its
   * handshake on its own; {@link AppView.initialized} tells when it is done.
   *
   * @throws McpError from the server's `resources/read`; TypeError when the URI is not `ui://` or the content is
   * not one `text/html;profile=mcp-app` document.
   */
  async render(container: Element, options: RenderOptions): Promise<AppView> {
    const { resourceUri, signal } = options;
    if (!isUiUri(resourceUri)) throw new TypeError(`expected a ui:// view, got ${String(resourceUri)}`);
    const read = await this.#client.readResource(resourceUri, { signal });
    const content = read.contents.find((c) => c.uri === resourceUri) ?? read.contents[0];
    if (content === undefined || content.mimeType !== APP_MIME_TYPE)
      throw new TypeError(`${resourceUri} is not a ${APP_MIME_TYPE} resource`);
    const html = viewHtml(content);
    signal?.throwIfAborted();
    const doc = this.#options.document ?? container.ownerDocument;
    const frame = doc.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
    frame.setAttribute('title', `MCP App ${resourceUri}`);
    const meta: AppResourceMeta = uiMetaOf(content) ?? {};
    if (meta.prefersBorder !== undefined) frame.dataset.prefersBorder = String(meta.prefersBorder);
    frame.style.cssText = 'width:100%;height:320px;border:0;display:block';
    frame.src = this.#sandbox.href;
    const view = new AppView({
      resourceUri,
      html,
      meta,
      frame,
      sandboxOrigin: this.#sandbox.origin,
      client: this.#client,
      hostInfo: this.#options.hostInfo ?? { name: 'boomerang-apps-host', version: '1' },
      hostContext: {
        displayMode: 'inline',
        availableDisplayModes: ['inline'],
        platform: 'web',
        containerDimensions: { maxHeight: this.#options.maxHeight ?? 2_000 },
        ...this.#options.hostContext,
        ...options.hostContext,
      },
      hooks: this.#options,
      limits: this.#options,
    });
    signal?.addEventListener('abort', () => void view.close('aborted'), { once: true });
    container.append(frame);
    return view;
  }

  /**
   * Calls a tool and renders its view in `container` when it has one (`_meta.ui.resourceUri`): the view gets the
   * arguments (`tool-input`), then the result (`tool-result`), or `tool-cancelled` when the call fails. Returns
   * the result and the view (undefined for a tool without one, or whose view could not be read: `onReject` is
   * told, and the result still comes back as text). The call runs the client's MRTR loop.
   */
  async callTool(
    container: Element,
    tool: { readonly name: string; readonly _meta?: unknown },
    args: Record<string, unknown> = {},
    signal?: AbortSignal,
  ): Promise<{ result: CallToolResult; view: AppView | undefined }> {
    const view = await this.#toolView(container, tool, signal);
    view?.sendToolInput(args);
    try {
      const result = await this.#client.callTool(tool.name, args, { signal });
      view?.sendToolResult(result);
      return { result, view };
    } catch (error) {
      view?.sendToolCancelled(error instanceof Error ? error.message : 'the call failed');
      throw error;
    }
  }

  /** The tool's view, mounted; undefined without one, or when it cannot be read (the call goes on without it). */
  async #toolView(
    container: Element,
    tool: { readonly name: string; readonly _meta?: unknown },
    signal: AbortSignal | undefined,
  ): Promise<AppView | undefined> {
    const uri = toolViewUri(tool);
    if (uri === undefined) return undefined;
    try {
      return await this.render(container, { resourceUri: uri, signal, hostContext: { toolInfo: { tool } } });
    } catch (error) {
      signal?.throwIfAborted();
      this.#options.onReject?.(
        `view ${uri} of tool '${tool.name}' could not be shown: ${String(error)}`,
        undefined,
      );
      return undefined;
    }
  }

  /**
   * An elicitation callback for `new Client(info, { elicitation })`: a form elicitation that names a view
   * (`_meta.ui.resourceUri`) is answered by that view, mounted in `container()` with the question in
   * `hostContext.elicitation`; the view's answer is checked against `requestedSchema` (a wrong one is refused to
   * the view, which may try again) and the view is closed. Anything else, or a view that cannot be read or
   * mounted, goes to `fallback` (the host's own form). Closing the view or aborting the round answers `cancel`.
   */
  elicitation(
    fallback: ElicitationCallback,
    container: (params: ElicitRequestParams) => Element | undefined,
  ): ElicitationCallback {
    return async (params, ctx) => {
      const uri = elicitationViewUri(params);
      const place = uri === undefined || params.mode === 'url' ? undefined : container(params);
      const schema = 'requestedSchema' in params ? params.requestedSchema : undefined;
      if (uri === undefined || place === undefined || !isRecord(schema)) return fallback(params, ctx);
      const question: AppElicitation = { message: params.message, requestedSchema: schema };
      let view: AppView;
      let check: AnswerCheck;
      try {
        check = answerCheck(schema);
        view = await this.render(place, {
          resourceUri: uri,
          signal: ctx.signal,
          hostContext: { elicitation: question },
        });
      } catch (error) {
        this.#options.onReject?.(`view ${uri} could not answer: ${String(error)}`, undefined);
        return fallback(params, ctx);
      }
      return askView(view, check, ctx);
    };
  }
}

async function askView(view: AppView, check: AnswerCheck, ctx: InputRequestContext): Promise<ElicitResult> {
  try {
    const answer = await view.answer(check, ctx.signal);
    return answer as ElicitResult;
  } finally {
    await view.close('answered');
  }
}

const ACTIONS: ReadonlySet<unknown> = new Set(['accept', 'decline', 'cancel']);

/** Checks a view's `ElicitResult` against the question's `requestedSchema`. */
function answerCheck(requestedSchema: unknown): AnswerCheck {
  const validator = fromJsonSchema(requestedSchema);
  return async (params) => {
    const { action, content } = params;
    if (!ACTIONS.has(action)) return { ok: false, problem: 'action must be accept, decline or cancel' };
    if (action !== 'accept') return { ok: true, value: { action } };
    if (!isRecord(content)) return { ok: false, problem: 'an accepted answer needs content' };
    const checked = await validate(validator, content);
    if (!checked.ok) return { ok: false, problem: 'content does not match the requested schema' };
    return { ok: true, value: { action, content } };
  };
}

/** The HTML of a view's content: its `text`, or its base64 `blob` as UTF-8. */
function viewHtml(content: { readonly text?: unknown; readonly blob?: unknown }): string {
  if (typeof content.text === 'string') return content.text;
  if (typeof content.blob !== 'string') throw new TypeError('the view has neither text nor blob');
  const bytes = Uint8Array.from(atob(content.blob), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
