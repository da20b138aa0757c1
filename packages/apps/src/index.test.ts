import { describe, expect, it } from 'vitest';
import * as host from './host/index.js';
import * as api from './index.js';

describe('@boomerang/apps', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'APPS_PROTOCOL_VERSION',
      'APP_MIME_TYPE',
      'ELICITATION_RESULT_METHOD',
      'LEGACY_RESOURCE_URI_KEY',
      'UI_EXTENSION',
      'appToolMeta',
      'appsExtension',
      'elicitApp',
      'elicitAppResult',
      'elicitationViewUri',
      'isUiUri',
      'modelVisibleTools',
      'registerAppView',
      'toolViewUri',
      'toolVisibility',
      'uiMetaOf',
      'viewMeta',
    ]);
  });

  it('exports exactly its browser host from @boomerang/apps/host', () => {
    expect(Object.keys(host).sort()).toEqual([
      'APPS_CLIENT_CAPABILITIES',
      'APPS_PROTOCOL_VERSION',
      'APP_MIME_TYPE',
      'AppHost',
      'AppView',
      'ELICITATION_RESULT_METHOD',
      'SANDBOX_PROXY_READY',
      'SANDBOX_RESOURCE_READY',
      'SANDBOX_VIEW_NAVIGATED',
      'UI_EXTENSION',
      'elicitationViewUri',
      'modelVisibleTools',
      'sandboxProxyHtml',
      'toolViewUri',
      'toolVisibility',
    ]);
  });
});
