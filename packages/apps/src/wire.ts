// The wire vocabulary of MCP Apps (`io.modelcontextprotocol/ui`, specification 2026-01-26) that both sides share:
// the extension id, the view MIME type, the `_meta.ui` shapes of views and tools, and how an elicitation names
// the view that may answer it. Plain data and readers; no DOM, no server: the server and host entries build on it.

/** The extension id, as `capabilities.extensions` names it on both sides. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/** The MIME type of an App view (an HTML5 document); the only one the 2026-01-26 specification defines. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The view↔host protocol version this package speaks (`ui/initialize`'s `protocolVersion`). */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

/** The deprecated flat tool `_meta` key some hosts still read; written beside `_meta.ui.resourceUri`. */
export const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';

/**
 * The view→host request with which a view answers the question it was rendered for (an App-answered
 * elicitation): params are an `ElicitResult` (`{ action, content? }`), the result `{}`. Content that does not
 * match the question's `requestedSchema` is answered `-32602` and the view may try again.
 */
export const ELICITATION_RESULT_METHOD = 'ui/elicitation-result';

/** Origins a view may reach, by directive (each entry an origin such as `https://api.example.com`). */
export interface AppCsp {
  /** `connect-src`: fetch, XHR, WebSocket. None by default. */
  readonly connectDomains?: readonly string[] | undefined;
  /** `script-src`, `style-src`, `img-src`, `font-src`, `media-src`. None beyond inline and `data:` by default. */
  readonly resourceDomains?: readonly string[] | undefined;
  /** `frame-src`: nested iframes. `'none'` by default. */
  readonly frameDomains?: readonly string[] | undefined;
  /** `base-uri`. `'self'` by default. */
  readonly baseUriDomains?: readonly string[] | undefined;
}

/** Browser features a view asks for (Permission Policy); a host may refuse any of them. */
export interface AppPermissions {
  readonly camera?: Record<string, never> | undefined;
  readonly microphone?: Record<string, never> | undefined;
  readonly geolocation?: Record<string, never> | undefined;
  readonly clipboardWrite?: Record<string, never> | undefined;
}

/** `_meta.ui` of a view resource and of its `resources/read` contents. */
export interface AppResourceMeta {
  readonly csp?: AppCsp | undefined;
  readonly permissions?: AppPermissions | undefined;
  /** A dedicated sandbox origin; its format is the host's to define. */
  readonly domain?: string | undefined;
  /** `true`: the host draws a border and background; `false`: it does not; absent: the host decides. */
  readonly prefersBorder?: boolean | undefined;
}

/** Who may call a tool: the model (`model`), the views of the same server (`app`). */
export type AppToolVisibility = 'model' | 'app';

/** `_meta.ui` of a tool. */
export interface AppToolMeta {
  /** The `ui://` view that renders the tool's results. */
  readonly resourceUri?: string | undefined;
  /** Default `['model', 'app']`. */
  readonly visibility?: readonly AppToolVisibility[] | undefined;
}

/** The view question of an App-answered elicitation: what the host hands the view in `hostContext.elicitation`. */
export interface AppElicitation {
  readonly message: string;
  readonly requestedSchema: Readonly<Record<string, unknown>>;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `_meta.ui` of a tool, resource or request, when it is an object. */
export function uiMetaOf(carrier: unknown): Readonly<Record<string, unknown>> | undefined {
  if (!isRecord(carrier)) return undefined;
  const meta = carrier._meta;
  if (!isRecord(meta)) return undefined;
  return isRecord(meta.ui) ? meta.ui : undefined;
}

/** True for a `ui://` URI (the only scheme a view may have). */
export function isUiUri(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('ui://') && value.length > 'ui://'.length;
}

/**
 * The view a tool renders with: `_meta.ui.resourceUri`, else the deprecated `_meta["ui/resourceUri"]`; undefined
 * when neither is a `ui://` URI.
 */
export function toolViewUri(tool: unknown): string | undefined {
  const uri = uiMetaOf(tool)?.resourceUri;
  if (isUiUri(uri)) return uri;
  const legacy = isRecord(tool) && isRecord(tool._meta) ? tool._meta[LEGACY_RESOURCE_URI_KEY] : undefined;
  return isUiUri(legacy) ? legacy : undefined;
}

/** A tool's visibility: `_meta.ui.visibility` when it is a list, else the default `['model', 'app']`. */
export function toolVisibility(tool: unknown): readonly AppToolVisibility[] {
  const visibility = uiMetaOf(tool)?.visibility;
  if (!Array.isArray(visibility)) return ['model', 'app'];
  return visibility.filter((v): v is AppToolVisibility => v === 'model' || v === 'app');
}

/**
 * The tools a host shows its model: those whose visibility includes `model` (the specification: a host MUST NOT
 * list app-only tools to the agent). The server lists every tool, so that the host knows which ones views may call.
 */
export function modelVisibleTools<T>(tools: readonly T[]): T[] {
  return tools.filter((tool) => toolVisibility(tool).includes('model'));
}

/** The view an elicitation request names (`params._meta.ui.resourceUri`), or undefined for a plain form. */
export function elicitationViewUri(params: unknown): string | undefined {
  const uri = uiMetaOf(params)?.resourceUri;
  return isUiUri(uri) ? uri : undefined;
}
