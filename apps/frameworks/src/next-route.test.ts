// The Next.js-style route handler of next-route.examples.ts, driven as Next drives a route module: the export
// named by the request's method gets the web Request (no real Next; nothing else of it is involved).
import { DELETE, GET, POST } from './next-route.examples.js';
import { type Mounted, mountSuite } from './test-support/mount-suite.js';

const route: Record<string, (request: Request) => Promise<Response>> = { POST, GET, DELETE };

/** What Next does with a request for the route: its method's export, or 405 when the module has none. */
async function dispatch(request: Request): Promise<Response> {
  const handler = route[request.method];
  return handler === undefined ? new Response(null, { status: 405 }) : handler(request);
}

mountSuite(
  'Next.js-style route handler: export async function POST(request: Request)',
  async (): Promise<Mounted> => {
    const url = new URL('http://localhost:3000/api/mcp');
    return {
      url,
      fetch: (input, init) => dispatch(new Request(input, init)),
      async send({ method = 'POST', path, headers, body }) {
        const target = new URL(path ?? url.pathname, url);
        const response = await dispatch(
          new Request(target, { method, headers: headers ?? {}, body: body ?? null }),
        );
        return { status: response.status, headers: response.headers, body: await response.text() };
      },
      close: async () => {},
    };
  },
  { maxBodyBytes: 1024 * 1024 },
);
