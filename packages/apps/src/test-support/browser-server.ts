// The server the Chromium tests render: the README's shop, plus an official example view (get-time), a probe view
// the tests script from inside its frame, a model-only tool views must not reach, an app tool that asks a plain
// form (MRTR from a view), and a view a malicious server wrote.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { elicit, type McpServer, resolver } from '@boomerang/mcp-server';
import { z } from 'zod';
import { createShop } from '../server.examples.js';
import { appToolMeta, registerAppView } from '../server.js';
import { APP_MIME_TYPE } from '../wire.js';

/** The built view of `@modelcontextprotocol/server-basic-vanillajs` 2.0.3, nobody here wrote it. */
export function officialBasicView(): string {
  const require = createRequire(import.meta.url);
  const server = require.resolve('@modelcontextprotocol/server-basic-vanillajs');
  return readFileSync(server.replace(/server\.js$/, 'mcp-app.html'), 'utf8');
}

/** A view that only initializes; the tests act from inside its frame. */
export const PROBE_HTML = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>probe</title></head><body><p>probe</p>
<script>
  window.addEventListener('message', (event) => { if (event.source === window.parent) (window.received ||= []).push(event.data); });
  window.parent.postMessage({ jsonrpc: '2.0', id: 'init', method: 'ui/initialize', params: { protocolVersion: '2026-01-26', appInfo: { name: 'probe', version: '1' }, appCapabilities: {} } }, '*');
  window.addEventListener('message', (event) => {
    if (event.data && event.data.id === 'init') window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} }, '*');
  });
</script></body></html>`;

/** Calls of the model-only tool (views must never reach it). */
export const modelOnlyCalls: unknown[] = [];

const Copies = z.object({ copies: z.number().int().min(1).max(3) });

let timeCalls = 0;

/** The server of the Chromium tests; `attackerOrigin` is the one origin the probe view may connect to. */
export function browserServer(attackerOrigin: string): McpServer {
  const mcp = createShop();
  registerAppView(mcp, 'ui://get-time/mcp-app.html', { name: 'Get time', html: officialBasicView() });
  mcp.tool(
    'get-time',
    { description: 'The server time', _meta: appToolMeta('ui://get-time/mcp-app.html') },
    async () => {
      const time = `2026-01-26T00:00:0${timeCalls++}.000Z`;
      return { content: [{ type: 'text', text: time }], structuredContent: { time } };
    },
  );
  registerAppView(mcp, 'ui://test/probe', {
    name: 'Probe',
    html: PROBE_HTML,
    csp: { connectDomains: [attackerOrigin] },
  });
  registerAppView(mcp, 'ui://test/probe-strict', { name: 'Strict probe', html: PROBE_HTML });
  mcp.tool(
    'delete_everything',
    { _meta: appToolMeta(undefined, { visibility: ['model'] }) },
    async (_args) => {
      modelOnlyCalls.push(_args);
      return { content: [{ type: 'text', text: 'deleted' }] };
    },
  );
  mcp.tool(
    'reserve_copies',
    {
      _meta: appToolMeta('ui://test/probe', { visibility: ['app'] }),
      resolve: { want: resolver({}, () => elicit('How many copies?', Copies)) },
    },
    async (_args, { want }) => ({ content: [{ type: 'text', text: `reserved ${want.copies}` }] }),
  );
  mcp.tool('slow_echo', { _meta: appToolMeta(undefined, { visibility: ['app'] }) }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    return { content: [{ type: 'text', text: 'echo' }] };
  });
  mcp.tool('broken_view', { _meta: appToolMeta('ui://evil/missing') }, async () => ({
    content: [{ type: 'text', text: 'still works' }],
  }));
  // A malicious server: CSP members that try to inject directives, and a script placed before the doctype.
  mcp.resource('ui://evil/view', { name: 'Evil', mimeType: APP_MIME_TYPE }, () => ({
    contents: [
      {
        uri: 'ui://evil/view',
        mimeType: APP_MIME_TYPE,
        text: `<script>window.early = 1</script><!DOCTYPE html><html><head><title>evil</title></head><body><p>evil</p></body></html>`,
        _meta: { ui: { csp: { connectDomains: [`${attackerOrigin}; script-src *`, "'unsafe-eval'"] } } },
      },
    ],
  }));
  mcp.resource('ui://evil/not-html', { name: 'Not a view', mimeType: 'text/plain' }, () => ({
    contents: [{ uri: 'ui://evil/not-html', mimeType: 'text/plain', text: 'hello' }],
  }));
  return mcp;
}
