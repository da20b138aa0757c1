// @boomerang/apps: MCP Apps (`io.modelcontextprotocol/ui`, specification 2026-01-26) on the server side: views as
// `ui://` resources, tools linked to them, the extension in `server/discover`, and questions an App answers. The
// browser host (sandbox proxy, view↔host bridge, App-answered elicitation) is `@boomerang/apps/host`.

// --- questions an App answers
export { type ElicitAppOptions, elicitApp, elicitAppResult } from './questions.js';
// --- serving views and linking tools
export {
  type AppsServerExtension,
  type AppViewConfig,
  appsExtension,
  appToolMeta,
  registerAppView,
  viewMeta,
} from './server.js';
// --- the wire vocabulary both sides share
export {
  APP_MIME_TYPE,
  APPS_PROTOCOL_VERSION,
  type AppCsp,
  type AppElicitation,
  type AppPermissions,
  type AppResourceMeta,
  type AppToolMeta,
  type AppToolVisibility,
  ELICITATION_RESULT_METHOD,
  elicitationViewUri,
  isUiUri,
  LEGACY_RESOURCE_URI_KEY,
  modelVisibleTools,
  toolViewUri,
  toolVisibility,
  UI_EXTENSION,
  uiMetaOf,
} from './wire.js';
