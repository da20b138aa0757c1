// The Boomerang side as users write it (McpServer, zod inputs, resolvers; boomerang-mcp-server.mjs), driven by the
// same Client as the low-level side over the in-memory pair.
import { setupBoomerang } from './boomerang.mjs';
import { createMcpServer } from './boomerang-mcp-server.mjs';

export { createMcpServer };

/** Connects a Boomerang client to a fresh McpServer over the in-memory pair; returns `{ call, close }`. */
export function setupMcpServer() {
  return setupBoomerang(createMcpServer);
}
