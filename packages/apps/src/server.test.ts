import { McpServer } from '@boomerang/mcp-server';
import { describe, expect, it } from 'vitest';
import { appsExtension, appToolMeta, registerAppView, viewMeta } from './server.js';
import { errorOf, request, resultOf } from './test-support/wire.js';
import { APP_MIME_TYPE, modelVisibleTools, toolViewUri, UI_EXTENSION } from './wire.js';

const HTML = '<!DOCTYPE html><html><body><p id="time"></p></body></html>';

function weatherServer(): McpServer {
  const mcp = new McpServer({ name: 'weather', version: '1.0.0' }, { extensions: [appsExtension()] });
  registerAppView(mcp, 'ui://weather/dashboard', {
    name: 'Weather dashboard',
    html: HTML,
    csp: { connectDomains: ['https://api.weather.example'], resourceDomains: ['https://*.cdn.example'] },
    permissions: { geolocation: {} },
    domain: 'weather.apps.example',
    prefersBorder: true,
  });
  mcp.tool(
    'get_weather',
    { description: 'Weather now', _meta: appToolMeta('ui://weather/dashboard') },
    async () => ({ content: [{ type: 'text', text: 'Sunny' }] }),
  );
  mcp.tool(
    'refresh_dashboard',
    { _meta: appToolMeta('ui://weather/dashboard', { visibility: ['app'] }) },
    async () => ({ content: [{ type: 'text', text: 'refreshed' }] }),
  );
  return mcp;
}

describe('serving Apps to a raw client', () => {
  it('lists a tool whose _meta.ui.resourceUri reads as text/html;profile=mcp-app', async () => {
    const mcp = weatherServer();
    const { tools } = resultOf(await mcp.handle(request('tools/list'))) as {
      tools: { name: string; _meta?: Record<string, unknown> }[];
    };
    const tool = tools.find((t) => t.name === 'get_weather');
    expect(tool?._meta).toEqual({
      ui: { resourceUri: 'ui://weather/dashboard' },
      'ui/resourceUri': 'ui://weather/dashboard',
    });
    const uri = toolViewUri(tool);
    expect(uri).toBe('ui://weather/dashboard');
    const read = resultOf(await mcp.handle(request('resources/read', { uri }))) as {
      contents: { uri: string; mimeType: string; text: string; _meta: unknown }[];
    };
    expect(read.contents).toEqual([
      {
        uri: 'ui://weather/dashboard',
        mimeType: 'text/html;profile=mcp-app',
        text: HTML,
        _meta: {
          ui: {
            csp: {
              connectDomains: ['https://api.weather.example'],
              resourceDomains: ['https://*.cdn.example'],
            },
            permissions: { geolocation: {} },
            domain: 'weather.apps.example',
            prefersBorder: true,
          },
        },
      },
    ]);
  });

  it('lists the view with its MIME type and _meta.ui', async () => {
    const { resources } = resultOf(await weatherServer().handle(request('resources/list'))) as {
      resources: Record<string, unknown>[];
    };
    expect(resources).toEqual([
      expect.objectContaining({
        uri: 'ui://weather/dashboard',
        name: 'Weather dashboard',
        mimeType: APP_MIME_TYPE,
        _meta: { ui: expect.objectContaining({ prefersBorder: true }) },
      }),
    ]);
  });

  it('declares io.modelcontextprotocol/ui in server/discover', async () => {
    const discovered = resultOf(await weatherServer().handle(request('server/discover'))) as {
      capabilities: { extensions?: Record<string, unknown> };
    };
    expect(discovered.capabilities.extensions?.[UI_EXTENSION]).toEqual({
      mimeTypes: [APP_MIME_TYPE],
      elicitation: {},
    });
  });

  it('lists app-only tools, which a host keeps from its model', async () => {
    const { tools } = resultOf(await weatherServer().handle(request('tools/list'))) as {
      tools: { name: string }[];
    };
    expect(tools.map((t) => t.name)).toEqual(['get_weather', 'refresh_dashboard']);
    expect(modelVisibleTools(tools).map((t) => t.name)).toEqual(['get_weather']);
  });

  it('answers a read of an unknown view -32602, and keeps serving', async () => {
    const mcp = weatherServer();
    expect(errorOf(await mcp.handle(request('resources/read', { uri: 'ui://weather/nope' }))).code).toBe(
      -32602,
    );
    expect(
      resultOf(await mcp.handle(request('resources/read', { uri: 'ui://weather/dashboard' }))),
    ).toBeDefined();
  });

  it('calls an html function per read', async () => {
    const mcp = new McpServer({ name: 'n', version: '1' });
    let reads = 0;
    registerAppView(mcp, 'ui://n/v', { html: () => `<p>${++reads}</p>` });
    await mcp.handle(request('resources/read', { uri: 'ui://n/v' }));
    const read = resultOf(await mcp.handle(request('resources/read', { uri: 'ui://n/v' }))) as {
      contents: { text: string; _meta: unknown }[];
    };
    expect(read.contents[0]).toMatchObject({ text: '<p>2</p>', _meta: { ui: {} } });
  });
});

describe('registration checks', () => {
  const mcp = new McpServer({ name: 'n', version: '1' });
  it.each([
    ['a non-ui URI', () => registerAppView(mcp, 'https://x/y', { html: '' })],
    ['an empty ui URI', () => registerAppView(mcp, 'ui://', { html: '' })],
    ['no html', () => registerAppView(mcp, 'ui://a', {} as never)],
    ['a CSP path', () => viewMeta({ csp: { connectDomains: ['https://x.example/path'] } })],
    ['a CSP keyword', () => viewMeta({ csp: { resourceDomains: ["'unsafe-eval'"] } })],
    ['a CSP list that is a string', () => viewMeta({ csp: { frameDomains: 'https://x' as never } })],
    ['an unknown permission', () => viewMeta({ permissions: { usb: {} } as never })],
    ['a non-boolean prefersBorder', () => viewMeta({ prefersBorder: 'yes' as never })],
    ['a tool linked to a non-ui URI', () => appToolMeta('https://x')],
    ['an unknown visibility', () => appToolMeta('ui://a', { visibility: ['everyone' as never] })],
  ])('throws TypeError for %s', (_, register) => {
    expect(register).toThrow(TypeError);
  });

  it('writes app-only tool meta without a view', () => {
    expect(appToolMeta(undefined, { visibility: ['app'] })).toEqual({ ui: { visibility: ['app'] } });
  });
});
