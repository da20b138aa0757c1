// @boomerang/apps/host: the browser host of MCP Apps over a Boomerang client. Views render in a sandboxed iframe
// behind the sandbox proxy (serve `sandboxProxyHtml()` from another origin), speak the view↔host JSON-RPC over
// postMessage, and reach the server through the client (tools/call, resources/read, MRTR included).

// --- the wire vocabulary (shared with the server entry)
export {
  APP_MIME_TYPE,
  APPS_PROTOCOL_VERSION,
  ELICITATION_RESULT_METHOD,
  elicitationViewUri,
  modelVisibleTools,
  toolViewUri,
  toolVisibility,
  UI_EXTENSION,
} from '../wire.js';
// --- the host and its views
export {
  APPS_CLIENT_CAPABILITIES,
  AppHost,
  type AppHostOptions,
  type RenderOptions,
} from './host.js';
// --- the sandbox proxy page
export {
  SANDBOX_PROXY_READY,
  SANDBOX_RESOURCE_READY,
  SANDBOX_VIEW_NAVIGATED,
  sandboxProxyHtml,
} from './sandbox-proxy.js';
export {
  type AnswerCheck,
  type AppHostClient,
  AppView,
  type AppViewHooks,
  type AppViewInit,
  type AppViewLimits,
} from './view.js';
