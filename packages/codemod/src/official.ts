// What the official MCP TypeScript SDK exports, by module, and where each name lives in Boomerang. One table: the
// import rewrite, the construct finder and the report all read it.

/** The official modules the codemod reads, v2 (`@modelcontextprotocol/*`) and v1 (`@modelcontextprotocol/sdk/*`). */
export type OfficialModule =
  | 'server' // @modelcontextprotocol/server, @modelcontextprotocol/sdk/server/mcp.js, …/server/index.js
  | 'stdio' // @modelcontextprotocol/server/stdio, @modelcontextprotocol/sdk/server/stdio.js
  | 'http' // @modelcontextprotocol/node, @modelcontextprotocol/sdk/server/streamableHttp.js
  | 'express' // @modelcontextprotocol/express, @modelcontextprotocol/sdk/server/express.js
  | 'types' // @modelcontextprotocol/sdk/types.js, @modelcontextprotocol/core
  | 'other';

const V2: Readonly<Record<string, OfficialModule>> = {
  '@modelcontextprotocol/server': 'server',
  '@modelcontextprotocol/server/stdio': 'stdio',
  '@modelcontextprotocol/node': 'http',
  '@modelcontextprotocol/express': 'express',
  '@modelcontextprotocol/core': 'types',
};

const V1: Readonly<Record<string, OfficialModule>> = {
  'server/mcp': 'server',
  'server/index': 'server',
  'server/stdio': 'stdio',
  'server/streamableHttp': 'http',
  'server/express': 'express',
  types: 'types',
  'shared/protocol': 'types',
};

/** The kind of official module `specifier` names, or `undefined` when it is not one. */
export function officialModule(specifier: string): OfficialModule | undefined {
  const v2 = V2[specifier];
  if (v2 !== undefined) return v2;
  const prefix = '@modelcontextprotocol/sdk/';
  if (specifier.startsWith(prefix)) {
    const rest = specifier.slice(prefix.length);
    return V1[rest.endsWith('.js') ? rest.slice(0, -3) : rest] ?? 'other';
  }
  return specifier.startsWith('@modelcontextprotocol/') ? 'other' : undefined;
}

/** Where an official export goes: a Boomerang module and name, and whether only its type is used. */
export interface Destination {
  readonly module: string;
  readonly name: string;
}

const MCP_SERVER = '@boomerang/mcp-server';
const PROTOCOL = '@boomerang/protocol';

const HANDLER_RESULTS: Readonly<Record<string, string>> = {
  CallToolResult: 'ToolResult',
  GetPromptResult: 'PromptResult',
  ReadResourceResult: 'ResourceResult',
};

/** Types of messages that `@boomerang/protocol` exports under the same name as the official SDK. */
const PROTOCOL_TYPES = new Set(
  (
    'Annotations AudioContent BlobResourceContents CallToolRequest CallToolResult ClientCapabilities ' +
    'CompleteRequest CompleteResult ContentBlock CreateMessageRequest CreateMessageRequestParams ' +
    'CreateMessageResult ElicitRequest ElicitRequestFormParams ElicitRequestParams ElicitRequestURLParams ' +
    'ElicitResult EmbeddedResource GetPromptRequest GetPromptResult Icon ImageContent Implementation InputRequest ' +
    'InputRequests InputRequiredResult InputResponse InputResponses JSONRPCMessage ListRootsResult LoggingLevel ' +
    'ModelPreferences PrimitiveSchemaDefinition Prompt PromptArgument PromptMessage ReadResourceRequest ' +
    'ReadResourceResult Resource ResourceContents ResourceLink ResourceTemplate Root SamplingMessage ' +
    'ServerCapabilities TextContent TextResourceContents Tool ToolAnnotations'
  ).split(' '),
);

/**
 * The Boomerang home of `name` imported from an official module of kind `module`, or `undefined` when there is
 * none (the codemod either consumes the construct, or keeps the import and reports it). `ResourceTemplate` is a
 * class in the official server module (consumed by the resource rewrite) and a type in its types module.
 */
export function destinationOf(module: OfficialModule, name: string): Destination | undefined {
  if (module === 'server' && name === 'McpServer') return { module: MCP_SERVER, name };
  if (name === 'StdioServerTransport' && module === 'stdio') {
    return { module: '@boomerang/transport-stdio', name };
  }
  if (name === 'toNodeHandler' && module === 'http')
    return { module: '@boomerang/transport-http/node', name };
  if (name === 'inputRequired') return { module: PROTOCOL, name };
  // What a handler returns: the result without `resultType` (the server stamps it).
  const handlerResult = HANDLER_RESULTS[name];
  if (handlerResult !== undefined) return { module: MCP_SERVER, name: handlerResult };
  if (name === 'ServerContext' || name === 'RequestHandlerExtra')
    return { module: MCP_SERVER, name: 'RequestContext' };
  if (name === 'ResourceTemplate' && module === 'server') return undefined;
  if (PROTOCOL_TYPES.has(name)) return { module: PROTOCOL, name };
  return undefined;
}

/** Where the docs explain what the codemod leaves to you. */
export const DOCS = 'https://github.com/boomerang-mcp/boomerang/blob/main/apps/docs/site';

/** The marker every comment the codemod writes starts with, so `grep boomerang-codemod` finds them all. */
export const MARK = 'boomerang-codemod:';
