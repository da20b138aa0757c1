import { McpServer, type McpServerOptions } from '@boomerang/mcp-server';
import type { ToolSchema } from '@boomerang/transport-http';
import { z } from 'zod';
import { registerPrompts, registerResources } from './fixtures/content.js';
import { registerMrtr } from './fixtures/mrtr.js';
import { registerTools, registerTriggers, xMcpHeaderInput } from './fixtures/tools.js';

/** The everything server and what its HTTP endpoint needs to know about it. */
export interface EverythingServer {
  readonly mcp: McpServer;
  /** The tools whose `x-mcp-header` arguments the endpoint checks against `Mcp-Param-*` headers. */
  readonly headerTools: readonly ToolSchema[];
}

/**
 * Every fixture the conformance suite's server scenarios use, on one `McpServer` (request state sealed under
 * a per-process key, the default). `logger` receives what never reaches the wire (default: stderr).
 */
export function createEverythingServer(
  options: { readonly logger?: McpServerOptions['logger'] } = {},
): EverythingServer {
  const mcp = new McpServer(
    { name: 'boomerang-everything', version: '0.0.0' },
    options.logger === undefined ? {} : { logger: options.logger },
  );
  registerTools(mcp);
  registerMrtr(mcp);
  const simplePrompt = registerPrompts(mcp);
  registerResources(mcp);
  registerTriggers(mcp, simplePrompt);
  const headerTools = [
    {
      name: 'test_x_mcp_header',
      inputSchema: z.toJSONSchema(xMcpHeaderInput, { io: 'input', target: 'draft-2020-12' }),
    },
  ];
  return { mcp, headerTools };
}
