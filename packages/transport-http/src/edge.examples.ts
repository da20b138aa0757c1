// The README's web-standard example (Deno, Bun, Cloudflare Workers…): quoted verbatim from the first import on.
import type { AuthInfo } from '@boomerang/protocol';
import { createHttpHandler } from '@boomerang/transport-http';
import { server } from './http.examples.js';

/** Stands in for your token verifier (JWT, introspection…). */
declare function verifyToken(token: string): Promise<AuthInfo | undefined>;

const mcp = createHttpHandler(server, {
  allowedHosts: ['mcp.example.com'],
  allowedOrigins: ['https://app.example.com'],
  authenticate: async (request) => {
    const token = request.headers.get('authorization')?.replace(/^Bearer /, '');
    const auth = token === undefined ? undefined : await verifyToken(token);
    if (auth !== undefined) return auth; // becomes ctx.auth in the handlers
    return new Response(null, {
      status: 401,
      headers: {
        'www-authenticate':
          'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"',
      },
    });
  },
});

/** The module shape Deno (`deno serve`), Bun and Workers expect: one fetch function. */
export default {
  fetch: (request: Request): Promise<Response> =>
    new URL(request.url).pathname === '/mcp'
      ? mcp(request)
      : Promise.resolve(new Response('Not Found', { status: 404 })),
};
