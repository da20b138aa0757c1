// Serving: v2's serveStdio(factory) and createMcpHandler(factory), v1's StdioServerTransport + connect, and
// Express / node:http routes that hand requests to a StreamableHTTPServerTransport, onto Boomerang's
// StdioServerTransport, createHttpHandler and toNodeHandler.
import { type CallExpression, Node, SyntaxKind } from 'ts-morph';
import { enclosingStatement, type FileContext, indentationOf } from './file-context.js';

/** Rewrites every serving construct of the file. */
export function convertTransports(context: FileContext): void {
  const calls = context.file.getDescendantsOfKind(SyntaxKind.CallExpression);
  for (const call of calls) {
    const official = context.officialName(call.getExpression());
    if (official?.name === 'serveStdio') convertServeStdio(context, call);
    else if (official?.name === 'createMcpHandler') convertCreateMcpHandler(context, call);
    else if (official?.name === 'createMcpExpressApp') convertExpressApp(context, call);
  }
  for (const created of context.file.getDescendantsOfKind(SyntaxKind.NewExpression)) {
    const official = context.officialName(created.getExpression());
    if (official?.name === 'StdioServerTransport' && (created.getArguments().length ?? 0) > 0) {
      context.leave(
        created,
        'StdioServerTransport',
        "Boomerang's StdioServerTransport serves process.stdin/stdout; the streams passed here were dropped.",
      );
      context.edits.replace(
        created.getStart(),
        created.getEnd(),
        `new ${created.getExpression().getText()}()`,
      );
    }
  }
  convertHttpRoutes(context, calls);
}

/** `F()` for a server factory `F` taking no argument, or `undefined` (with a note) when that is not clear. */
function factoryCall(context: FileContext, factory: Node | undefined, construct: string): string | undefined {
  if (factory === undefined) return undefined;
  if (Node.isArrowFunction(factory) && factory.getParameters().length === 0) {
    const body = factory.getBody();
    if (!Node.isBlock(body)) return `(${body.getText()})`;
  }
  if (Node.isIdentifier(factory)) {
    const declaration = factory.getSymbol()?.getDeclarations()[0];
    const fn = Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : declaration;
    if (
      (Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) &&
      fn.getParameters().every((p) => p.isOptional() || p.hasInitializer())
    ) {
      return `${factory.getText()}()`;
    }
  }
  context.leave(
    factory,
    construct,
    `${construct}: the server factory takes per-request arguments. A Boomerang McpServer keeps nothing per request or per era, so build one server and serve it (server.connect(new StdioServerTransport()), createHttpHandler(server), toNodeHandler(server)).`,
  );
  return undefined;
}

function convertServeStdio(context: FileContext, call: CallExpression): void {
  const [factory, options] = call.getArguments();
  const server = factoryCall(context, factory, 'serveStdio');
  if (server === undefined) return;
  if (options !== undefined)
    context.leave(
      call,
      'serveStdio',
      'serveStdio options were dropped: Boomerang serves process.stdin/stdout.',
    );
  context.edits.replace(call.getStart(), call.getEnd(), `${server}.connect(new StdioServerTransport())`);
  context.need('@boomerang/transport-stdio', 'StdioServerTransport');
  context.note(
    call,
    'rewritten',
    'serveStdio',
    'serveStdio(factory) became factory().connect(new StdioServerTransport()).',
  );
}

function convertCreateMcpHandler(context: FileContext, call: CallExpression): void {
  const [factory, options] = call.getArguments();
  const server = factoryCall(context, factory, 'createMcpHandler');
  if (server === undefined) return;
  if (options !== undefined) {
    context.leave(
      call,
      'createMcpHandler',
      `createMcpHandler options were dropped; see createHttpHandler's options (allowedHosts, allowedOrigins, authenticate, maxBodyBytes, legacy).`,
    );
  }
  const parent = call.getParent();
  if (
    Node.isCallExpression(parent) &&
    context.officialName(parent.getExpression())?.name === 'toNodeHandler'
  ) {
    context.edits.replace(call.getStart(), call.getEnd(), server);
    context.note(
      call,
      'rewritten',
      'createMcpHandler',
      'toNodeHandler(createMcpHandler(factory)) became toNodeHandler(factory()).',
    );
    return;
  }
  context.edits.replace(call.getStart(), call.getEnd(), `createHttpHandler(${server})`);
  context.need('@boomerang/transport-http', 'createHttpHandler');
  context.note(
    call,
    'rewritten',
    'createMcpHandler',
    'createMcpHandler(factory) became createHttpHandler(factory()), a (Request) => Promise<Response>.',
  );
  const declaration = call.getParentIfKind(SyntaxKind.VariableDeclaration);
  const name = declaration?.getNameNode();
  if (!Node.isIdentifier(name)) return;
  for (const reference of name.findReferencesAsNodes()) {
    const access = reference.getParent();
    if (
      reference === name ||
      !Node.isPropertyAccessExpression(access) ||
      access.getExpression() !== reference
    )
      continue;
    if (access.getName() === 'fetch' && Node.isCallExpression(access.getParent())) {
      context.edits.replace(access.getStart(), access.getEnd(), reference.getText());
    } else if (access.getName() !== 'close') {
      context.leave(
        access,
        'createMcpHandler',
        `the handler's "${access.getName()}" has no Boomerang counterpart (resource updates: mcp.resourceUpdated(uri)).`,
      );
    }
  }
}

/** `createMcpExpressApp()` → `express()` with the JSON body parser; toNodeHandler does the Host/Origin checks. */
function convertExpressApp(context: FileContext, call: CallExpression): void {
  const express = expressName(context);
  const options = call.getArguments()[0];
  if (options !== undefined) {
    context.leave(
      call,
      'createMcpExpressApp',
      'createMcpExpressApp options were dropped: give allowedHosts / allowedOrigins to toNodeHandler(server, options) instead.',
      'guides/mounting.md',
    );
  }
  const declaration = call.getParentIfKind(SyntaxKind.VariableDeclaration);
  const name = declaration?.getNameNode();
  context.edits.replace(call.getStart(), call.getEnd(), `${express}()`);
  if (Node.isIdentifier(name)) {
    const statement = enclosingStatement(call);
    context.edits.insert(
      statement.getEnd(),
      `\n${indentationOf(statement)}${name.getText()}.use(${express}.json());`,
    );
  }
  context.note(
    call,
    'rewritten',
    'createMcpExpressApp',
    `createMcpExpressApp() became ${express}() with ${express}.json(); toNodeHandler checks Host and Origin on loopback.`,
  );
}

/** The local name of the `express` default import (added when the file has none). */
function expressName(context: FileContext): string {
  for (const declaration of context.file.getImportDeclarations()) {
    if (declaration.getModuleSpecifierValue() !== 'express') continue;
    const name = declaration.getDefaultImport()?.getText() ?? declaration.getNamespaceImport()?.getText();
    if (name !== undefined) return name;
  }
  context.need('express', 'default as express');
  return 'express';
}

const ROUTE_METHODS = new Set(['post', 'get', 'delete', 'all', 'use']);

/** A route's callback: written inline, or a variable initialised with a function (`app.post('/mcp', onPost)`). */
function routeCallback(argument: Node | undefined): { callback: Node; replaced: Node } | undefined {
  if (argument === undefined) return undefined;
  if (Node.isArrowFunction(argument) || Node.isFunctionExpression(argument)) {
    return { callback: argument, replaced: argument };
  }
  if (!Node.isIdentifier(argument)) return undefined;
  const declaration = argument.getSymbol()?.getDeclarations()[0];
  const initializer = Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
  if (Node.isArrowFunction(initializer) || Node.isFunctionExpression(initializer)) {
    return { callback: initializer, replaced: initializer };
  }
  return undefined;
}

/**
 * Express-style routes whose callback feeds an official Streamable HTTP transport (stateless, or with a session
 * map and GET/DELETE routes) become one `toNodeHandler(server)` that every such route mounts: it serves
 * 2026-07-28 requests and keeps 2025-11-25 sessions itself.
 */
function convertHttpRoutes(context: FileContext, calls: CallExpression[]): void {
  const routes: Array<{ call: CallExpression; replaced: Node; server: string | undefined }> = [];
  const seen = new Set<Node>();
  for (const call of calls) {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || !ROUTE_METHODS.has(callee.getName())) continue;
    const found = routeCallback(call.getArguments().at(-1));
    if (found === undefined || !feedsOfficialTransport(context, found.callback)) continue;
    if (seen.has(found.replaced)) continue;
    seen.add(found.replaced);
    routes.push({ call, replaced: found.replaced, server: connectedServer(found.callback) });
  }
  const server = routes.find((r) => r.server !== undefined)?.server;
  if (routes.length === 0) return;
  if (server === undefined) {
    for (const route of routes) {
      context.leave(
        route.call,
        'StreamableHTTPServerTransport',
        'this route serves an official transport, but the codemod found no server.connect(transport) to take the server from; mount toNodeHandler(server) of @boomerang/transport-http/node here.',
        'guides/mounting.md',
      );
    }
    return;
  }
  const handler = context.freshName('mcpHandler');
  const first = routes
    .map((r) => enclosingStatement(r.replaced))
    .sort((a, b) => a.getStart() - b.getStart())[0];
  if (first === undefined) return;
  const indent = indentationOf(first);
  context.edits.insert(
    first.getStart(),
    `// Serves 2026-07-28 requests and the 2025-11-25 sessions (their GET and DELETE too) of every route below.\n${indent}const ${handler} = toNodeHandler(${server});\n${indent}`,
  );
  context.need('@boomerang/transport-http/node', 'toNodeHandler');
  for (const route of routes) {
    context.edits.replace(route.replaced.getStart(), route.replaced.getEnd(), handler);
    context.note(
      route.call,
      'rewritten',
      'StreamableHTTPServerTransport',
      `this route's transport handling became ${handler} (toNodeHandler(${server})).`,
    );
  }
}

/** Whether the callback creates an official Streamable HTTP transport or calls `handleRequest` on one. */
function feedsOfficialTransport(context: FileContext, callback: Node): boolean {
  return callback.getDescendants().some((node) => {
    if (Node.isNewExpression(node)) {
      const name = context.officialName(node.getExpression())?.name ?? '';
      return name.endsWith('StreamableHTTPServerTransport');
    }
    if (Node.isPropertyAccessExpression(node) && node.getName() === 'handleRequest') {
      // `transport.handleRequest(req, res, body?)`: typed as an official transport, or untyped (plain JavaScript).
      const type = node.getExpression().getType();
      const call = node.getParent();
      const untyped = type.isAny() && Node.isCallExpression(call) && call.getArguments().length >= 2;
      return (
        untyped || (type.getSymbol()?.getName() ?? type.getText()).includes('StreamableHTTPServerTransport')
      );
    }
    return false;
  });
}

/** The server a callback connects (`getServer()` or a variable of the enclosing scope), as an expression text. */
function connectedServer(callback: Node): string | undefined {
  for (const call of callback.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'connect') continue;
    const target = callee.getExpression();
    if (!Node.isIdentifier(target)) continue;
    const declaration = target.getSymbol()?.getDeclarations()[0];
    if (declaration === undefined) continue;
    if (!callback.containsRange(declaration.getPos(), declaration.getEnd())) return target.getText();
    const initializer = Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
    const awaited = Node.isAwaitExpression(initializer) ? initializer.getExpression() : initializer;
    if (Node.isCallExpression(awaited) && awaited.getArguments().length === 0) return awaited.getText();
  }
  return undefined;
}
