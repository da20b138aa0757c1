// The sandbox proxy of the specification ("Sandbox proxy"): a page the host serves from an origin of its own
// (never the host page's origin), loaded in an iframe with `allow-scripts allow-same-origin`. It tells the host it
// is ready, receives the view's HTML with its CSP domains and permissions, loads the view into an inner iframe
// (sandboxed `allow-scripts allow-forms`: an opaque origin, so the view reaches neither the proxy nor the host)
// under a Content-Security-Policy built from those domains, and relays every message between the two except the
// reserved `ui/notifications/sandbox-*` ones. Plain JavaScript in a string: it runs in the browser as served.

/** The proxy's reserved notifications (proxy→host `…-proxy-ready`, host→proxy `…-resource-ready`). */
export const SANDBOX_PROXY_READY = 'ui/notifications/sandbox-proxy-ready';
/** See {@link SANDBOX_PROXY_READY}. */
export const SANDBOX_RESOURCE_READY = 'ui/notifications/sandbox-resource-ready';
/**
 * Proxy→host, in the reserved prefix: the view's frame navigated away from the document it was given (a link, a
 * `<meta http-equiv="refresh">`, `location = …`). The proxy has removed it: a page loaded that way runs outside
 * the view's CSP, so the host closes the view.
 */
export const SANDBOX_VIEW_NAVIGATED = 'ui/notifications/sandbox-view-navigated';

const SCRIPT = String.raw`(() => {
  'use strict';
  const READY = '${SANDBOX_PROXY_READY}';
  const RESOURCE = '${SANDBOX_RESOURCE_READY}';
  const NAVIGATED = '${SANDBOX_VIEW_NAVIGATED}';
  const RESERVED = 'ui/notifications/sandbox-';
  const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;
  const FEATURES = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };
  const host = window.parent;
  const ancestors = location.ancestorOrigins;
  const hostOrigin = ancestors && ancestors.length > 0 ? ancestors[0] : document.referrer ? new URL(document.referrer).origin : '';
  let inner = null;
  let loaded = false;

  const origins = (list) => (Array.isArray(list) ? list.filter((o) => typeof o === 'string' && ORIGIN.test(o)) : []);
  function policy(csp) {
    if (csp === null || typeof csp !== 'object') {
      return "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'; form-action 'none'";
    }
    const r = origins(csp.resourceDomains).join(' ');
    const c = origins(csp.connectDomains);
    const f = origins(csp.frameDomains);
    const b = origins(csp.baseUriDomains);
    return [
      "default-src 'none'",
      "script-src 'self' 'unsafe-inline' " + r,
      "style-src 'self' 'unsafe-inline' " + r,
      'connect-src ' + (c.length > 0 ? c.join(' ') : "'none'"),
      "img-src 'self' data: " + r,
      "font-src 'self' " + r,
      "media-src 'self' data: " + r,
      'frame-src ' + (f.length > 0 ? f.join(' ') : "'none'"),
      "object-src 'none'",
      'base-uri ' + (b.length > 0 ? b.join(' ') : "'self'"),
      "form-action 'none'",
    ].join('; ');
  }
  // The policy goes first in the document (after a leading doctype), before anything the view wrote can run.
  function withPolicy(html, csp) {
    const meta = '<meta http-equiv="Content-Security-Policy" content="' + policy(csp) + '">';
    const lead = /^(\uFEFF?\s*(<!--[\s\S]*?-->\s*)*<!doctype[^>]*>)/i.exec(html);
    return lead ? lead[1] + meta + html.slice(lead[1].length) : meta + html;
  }
  function allow(permissions) {
    if (permissions === null || typeof permissions !== 'object') return '';
    return Object.keys(FEATURES).filter((k) => permissions[k]).map((k) => FEATURES[k] + " 'src'").join('; ');
  }
  function load(params) {
    if (params === null || typeof params !== 'object' || typeof params.html !== 'string') return;
    inner = document.createElement('iframe');
    inner.setAttribute('sandbox', 'allow-scripts allow-forms');
    inner.setAttribute('allow', allow(params.permissions));
    inner.setAttribute('title', 'MCP App');
    inner.style.cssText = 'border:0;width:100%;height:100%;display:block';
    let loads = 0;
    inner.addEventListener('load', () => {
      loads += 1;
      if (loads > 1 && inner !== null) {
        inner.remove();
        inner = null;
        host.postMessage({ jsonrpc: '2.0', method: NAVIGATED, params: {} }, hostOrigin);
      }
    });
    inner.srcdoc = withPolicy(params.html, params.csp);
    document.body.appendChild(inner);
  }
  const reserved = (data) => data !== null && typeof data === 'object' && typeof data.method === 'string' && data.method.startsWith(RESERVED);

  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.source === host && event.origin === hostOrigin) {
      if (reserved(data)) {
        if (data.method === RESOURCE && !loaded) {
          loaded = true;
          load(data.params);
        }
        return;
      }
      if (inner !== null && inner.contentWindow !== null) inner.contentWindow.postMessage(data, '*');
      return;
    }
    if (inner !== null && event.source === inner.contentWindow && !reserved(data)) host.postMessage(data, hostOrigin);
  });
  const start = () => host.postMessage({ jsonrpc: '2.0', method: READY, params: {} }, hostOrigin);
  if (hostOrigin !== '') start();
})();`;

/**
 * The HTML of the sandbox proxy page. Serve it from an origin that is not the host page's (another host name or
 * port; the host refuses a proxy URL of its own origin), e.g. `GET /sandbox.html` → this string with
 * `Content-Type: text/html`. It needs no server state: one page serves every view. The page answers only the
 * window that embeds it, and only the origin of that window (`location.ancestorOrigins`, else the referrer).
 */
export function sandboxProxyHtml(): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>MCP App sandbox</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}</style></head>
<body><script>${SCRIPT}</script></body></html>`;
}
