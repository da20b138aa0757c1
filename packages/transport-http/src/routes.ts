// Extra paths `listen()` serves beside the MCP endpoint (e.g. OAuth protected-resource metadata).
import { argumentError } from '@boomerang/protocol';

/** Serves one route of {@link ListenerOptions.routes}. */
export type RouteHandler = (request: Request) => Response | Promise<Response>;

/** A route given as `{ url, handler }`: `url` is a path (`/health`) or an absolute URL whose path is taken. */
export interface Route {
  readonly url: string | URL;
  readonly handler: RouteHandler;
}

/** {@link ListenerOptions.routes}: by path, or a list of `{ url, handler }`. */
export type ListenRoutes = Readonly<Record<string, RouteHandler>> | readonly Route[];

/** `routes` by exact path; a route on the MCP path, or two on one path, is a mistake worth failing for. */
export function routeTable(routes: ListenRoutes | undefined, path: string): Map<string, RouteHandler> {
  const table = new Map<string, RouteHandler>();
  if (routes === undefined) return table;
  const entries: [string, RouteHandler][] = Array.isArray(routes)
    ? (routes as readonly Route[]).map(({ url, handler }) => [
        new URL(url, 'http://localhost').pathname,
        handler,
      ])
    : Object.entries(routes as Readonly<Record<string, RouteHandler>>);
  for (const [route, handler] of entries) {
    if (!route.startsWith('/')) throw argumentError('routes', 'paths starting with "/"', route);
    if (typeof handler !== 'function')
      throw argumentError('routes', `a handler function for ${route}`, handler);
    if (route === path) throw new TypeError(`"routes" cannot serve the MCP endpoint's path ${path}`);
    if (table.has(route)) throw new TypeError(`"routes" lists ${route} twice`);
    table.set(route, handler);
  }
  return table;
}
