// Serving MCP Apps with McpServer: the extension declared in `server/discover`, views registered as `ui://`
// resources of type `text/html;profile=mcp-app` (with their `_meta.ui`), and tools linked to a view. Views are
// ordinary resources and tools ordinary tools: these helpers only write the metadata the specification asks for.

import type { McpServer, McpServerOptions, RequestContext, ResourceHandle } from '@boomerang/mcp-server';
import { argumentError } from '@boomerang/protocol';
import {
  APP_MIME_TYPE,
  type AppCsp,
  type AppPermissions,
  type AppResourceMeta,
  type AppToolVisibility,
  isUiUri,
  LEGACY_RESOURCE_URI_KEY,
  UI_EXTENSION,
} from './wire.js';

/** An extension as `McpServer`'s `extensions` option takes it. */
export type AppsServerExtension = NonNullable<McpServerOptions['extensions']>[number];

/**
 * The `io.modelcontextprotocol/ui` extension, for `new McpServer(info, { extensions: [appsExtension()] })`:
 * `server/discover` then lists it under `capabilities.extensions` with the view MIME type this server serves,
 * and `elicitation: {}`, which says its questions may name a view ({@link elicitApp}). The extension adds no
 * method: views are read with `resources/read` and their tools called with `tools/call`.
 */
export function appsExtension(): AppsServerExtension {
  return { id: UI_EXTENSION, settings: { mimeTypes: [APP_MIME_TYPE], elicitation: {} } };
}

/** How a view is registered: its listing, its HTML and its `_meta.ui`. */
export interface AppViewConfig extends AppResourceMeta {
  /** Listed name. Default: the URI. */
  readonly name?: string | undefined;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  /**
   * The view: one HTML5 document, every script and style inline or from `csp.resourceDomains` (the host loads
   * it into a sandboxed frame with no origin of its own). A function is called on every read.
   */
  readonly html: string | ((ctx: RequestContext) => string | Promise<string>);
}

const DOMAIN_LISTS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
/** An origin as CSP source expressions take it: scheme, host (a leading `*.` allowed), optional port. */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;

function checkCsp(csp: unknown, where: string): AppCsp | undefined {
  if (csp === undefined) return undefined;
  if (typeof csp !== 'object' || csp === null) throw argumentError(`${where} csp`, 'object', csp);
  const out: Record<string, string[]> = {};
  for (const key of DOMAIN_LISTS) {
    const list: unknown = (csp as AppCsp)[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw argumentError(`${where} csp.${key}`, 'array of origins', list);
    for (const origin of list) {
      if (typeof origin !== 'string' || !ORIGIN.test(origin))
        throw argumentError(`${where} csp.${key}[]`, 'an origin such as https://cdn.example.com', origin);
    }
    out[key] = [...list];
  }
  return out;
}

function checkPermissions(permissions: unknown, where: string): AppPermissions | undefined {
  if (permissions === undefined) return undefined;
  if (typeof permissions !== 'object' || permissions === null)
    throw argumentError(`${where} permissions`, 'object', permissions);
  const out: Record<string, Record<string, never>> = {};
  for (const key of Object.keys(permissions)) {
    if (!(PERMISSIONS as readonly string[]).includes(key))
      throw argumentError(`${where} permissions`, PERMISSIONS.join(' | '), key);
    out[key] = {};
  }
  return out;
}

/** The `_meta.ui` of a view, checked: undefined members left out. */
export function viewMeta(config: AppResourceMeta, where = 'view'): AppResourceMeta {
  const csp = checkCsp(config.csp, where);
  const permissions = checkPermissions(config.permissions, where);
  const { domain, prefersBorder } = config;
  if (domain !== undefined && typeof domain !== 'string')
    throw argumentError(`${where} domain`, 'string', domain);
  if (prefersBorder !== undefined && typeof prefersBorder !== 'boolean')
    throw argumentError(`${where} prefersBorder`, 'boolean', prefersBorder);
  return Object.fromEntries(
    Object.entries({ csp, permissions, domain, prefersBorder }).filter(([, v]) => v !== undefined),
  );
}

/**
 * Registers an App view: a static resource at `uri` (`ui://…`), listed with `mimeType:
 * "text/html;profile=mcp-app"` and `_meta.ui`, whose `resources/read` returns the HTML as `text` with the same
 * MIME type and `_meta.ui` (where hosts read the CSP, permissions, domain and border preference).
 *
 * @throws TypeError when `uri` is not a `ui://` URI, `html` is neither a string nor a function, or the CSP
 * lists something other than origins, or a permission is unknown.
 */
export function registerAppView(mcp: McpServer, uri: string, config: AppViewConfig): ResourceHandle {
  if (!isUiUri(uri)) throw argumentError('registerAppView() uri', 'a ui:// URI', uri);
  if (typeof config !== 'object' || config === null)
    throw argumentError('registerAppView() config', 'object', config);
  const { html, name, title, description } = config;
  if (typeof html !== 'string' && typeof html !== 'function')
    throw argumentError('registerAppView() html', 'string or function', html);
  const ui = viewMeta(config, `view '${uri}'`);
  const listing = Object.fromEntries(
    Object.entries({ name, title, description }).filter(([, v]) => v !== undefined),
  );
  return mcp.resource(uri, { ...listing, mimeType: APP_MIME_TYPE, _meta: { ui } }, async (ctx) => {
    const text = typeof html === 'string' ? html : await html(ctx);
    if (typeof text !== 'string') throw new TypeError(`view '${uri}': html() must return a string`);
    return { contents: [{ uri, mimeType: APP_MIME_TYPE, text, _meta: { ui } }] };
  });
}

/**
 * The `_meta` that links a tool to its view, for `mcp.tool(name, { _meta: appToolMeta(uri), … }, handler)`:
 * `{ ui: { resourceUri, visibility? }, "ui/resourceUri": resourceUri }` (the flat key is the deprecated form
 * some hosts still read). `visibility: ['app']` makes a tool only views call: hosts keep it from the model, and
 * reject calls from views to tools without `app`. Give `resourceUri: undefined` for an app-only tool with no view
 * of its own.
 *
 * @throws TypeError when `resourceUri` is given and not a `ui://` URI, or `visibility` is not a list of
 * `'model'` / `'app'`.
 */
export function appToolMeta(
  resourceUri: string | undefined,
  options: { readonly visibility?: readonly AppToolVisibility[] | undefined } = {},
): Record<string, unknown> {
  if (resourceUri !== undefined && !isUiUri(resourceUri))
    throw argumentError('appToolMeta() resourceUri', 'a ui:// URI', resourceUri);
  const { visibility } = options;
  if (
    visibility !== undefined &&
    (!Array.isArray(visibility) || visibility.some((v) => v !== 'model' && v !== 'app'))
  ) {
    throw argumentError('appToolMeta() visibility', "array of 'model' | 'app'", visibility);
  }
  const ui = Object.fromEntries(
    Object.entries({ resourceUri, visibility: visibility && [...visibility] }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  return resourceUri === undefined ? { ui } : { ui, [LEGACY_RESOURCE_URI_KEY]: resourceUri };
}
