// A Next.js App Router route handler (app/api/mcp/route.ts), quoted by the mounting guide and run by
// next-route.test.ts, which calls its exports as Next does: one function per HTTP method, a web Request in.
// #region next
import { createHttpHandler } from '@boomerang/transport-http';
import { createGreeter } from './greeter.examples.mjs';

const mcp = createHttpHandler(createGreeter(), {
  allowedHosts: ['localhost:3000', 'mcp.example.com'], // the names your app is reached by
  maxBodyBytes: 1024 * 1024,
});

export async function POST(request: Request): Promise<Response> {
  return mcp(request);
}

// 2025-11-25 clients also open their session's stream (GET) and end it (DELETE).
export const GET = POST;
export const DELETE = POST;
// #endregion next
