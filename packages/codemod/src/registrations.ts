// registerTool / registerPrompt / registerResource (v1 and v2) and v1's tool / prompt / resource overloads become
// Boomerang's tool / prompt / resource / resourceTemplate, with their configs renamed, raw shapes wrapped and
// handlers converted.
import { type CallExpression, Node, type ObjectLiteralExpression, SyntaxKind } from 'ts-morph';
import { enclosingStatement, type FileContext } from './file-context.js';
import { convertHandler } from './handler.js';
import type { HandlerKind } from './plan.js';
import { isZodShapeArgument, schemaText } from './schemas.js';

const METHODS = new Set(['registerTool', 'registerPrompt', 'registerResource', 'tool', 'prompt', 'resource']);
const KEPT_TOOL = new Set(['title', 'description', 'annotations', 'icons', '_meta']);
const KEPT_PROMPT = new Set(['title', 'description', 'icons', '_meta']);
const KEPT_RESOURCE = new Set(['title', 'description', 'mimeType', 'annotations', 'icons', '_meta', 'size']);

/** Whether `node` is an official `McpServer` (by type when the SDK is installed, else by its declaration). */
export function isOfficialMcpServer(context: FileContext, node: Node): boolean {
  const symbol = node.getType().getSymbol();
  if (symbol?.getName() === 'McpServer') {
    const file = symbol.getDeclarations()[0]?.getSourceFile().getFilePath() ?? '';
    if (file.includes('@modelcontextprotocol')) return true;
  }
  if (!Node.isIdentifier(node)) return false;
  for (const declaration of node.getSymbol()?.getDeclarations() ?? []) {
    if (Node.isVariableDeclaration(declaration) || Node.isParameterDeclaration(declaration)) {
      const initializer = Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
      if (
        Node.isNewExpression(initializer) &&
        context.officialName(initializer.getExpression())?.name === 'McpServer'
      ) {
        return true;
      }
      const annotation = declaration.getTypeNode();
      if (
        Node.isTypeReference(annotation) &&
        context.officialName(annotation.getTypeName())?.name === 'McpServer'
      ) {
        return true;
      }
    }
  }
  return false;
}

/** Every registration call on an official `McpServer` in the file, in source order. */
export function findRegistrations(context: FileContext): CallExpression[] {
  return context.file.getDescendantsOfKind(SyntaxKind.CallExpression).filter((call) => {
    const callee = call.getExpression();
    return (
      Node.isPropertyAccessExpression(callee) &&
      METHODS.has(callee.getName()) &&
      isOfficialMcpServer(context, callee.getExpression())
    );
  });
}

/** Converts one registration call. */
export function convertRegistration(context: FileContext, call: CallExpression): void {
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee)) return;
  const method = callee.getName();
  const args = call.getArguments();
  const handler = args.at(-1);
  if (handler === undefined || (!Node.isArrowFunction(handler) && !Node.isFunctionExpression(handler))) {
    context.leave(
      call,
      method,
      `${method}: its callback is not written inline, so the codemod cannot adapt its parameters to (args, resolved, ctx); convert it by hand.`,
    );
    return;
  }
  const name = args[0]?.getText() ?? "''";
  const owner = `${method.replace(/^register/, '').toLowerCase()} ${name.replace(/^['"`]|['"`]$/g, "'")}`;
  const registration = enclosingStatement(call);
  if (method === 'registerResource' || method === 'resource') {
    convertResource(context, call, handler, owner, registration);
    return;
  }
  const isTool = method === 'registerTool' || method === 'tool';
  const config = method.startsWith('register') ? args[1] : undefined;
  let kind: HandlerKind;
  let configEdit: (resolve: string[]) => void;
  if (config !== undefined && args.length === 3) {
    if (!Node.isObjectLiteralExpression(config)) {
      context.leave(
        config,
        method,
        `${owner}: its config is not an object literal; rename inputSchema → input, outputSchema → output, argsSchema → input by hand.`,
      );
      return;
    }
    const schemaKey = isTool ? 'inputSchema' : 'argsSchema';
    kind = config.getProperty(schemaKey) !== undefined ? 'args' : 'no-args';
    configEdit = (extra) => rewriteConfig(context, config, isTool ? 'tool' : 'prompt', owner, extra);
  } else if (!method.startsWith('register')) {
    const middle = args.slice(1, -1);
    const built = v1Config(context, middle, isTool);
    kind = built.hasSchema ? 'args' : 'no-args';
    configEdit = (extra) => {
      const text = `{ ${[...built.fields, ...extra].join(', ')} }`;
      if (middle.length === 0) context.edits.insert(args[0]?.getEnd() ?? handler.getStart(), `, ${text}`);
      else context.edits.replace(middle[0]?.getStart() ?? 0, handler.getStart(), `${text}, `);
    };
  } else {
    context.leave(call, method, `${owner}: unexpected arguments; convert it by hand.`);
    return;
  }
  const result = convertHandler(context, { fn: handler, kind, registration, owner });
  const resolve = result.resolve.map((r) => (r.key === r.resolver ? r.key : `${r.key}: ${r.resolver}`));
  configEdit(resolve.length > 0 ? [`resolve: { ${resolve.join(', ')} }`] : []);
  context.edits.replace(
    callee.getNameNode().getStart(),
    callee.getNameNode().getEnd(),
    isTool ? 'tool' : 'prompt',
  );
  context.note(
    call,
    'rewritten',
    method,
    `${owner}: now ${isTool ? 'tool' : 'prompt'}(name, config, handler).`,
  );
}

/** Rewrites a registerTool / registerPrompt config object in place; `extra` fields are added at its end. */
function rewriteConfig(
  context: FileContext,
  config: ObjectLiteralExpression,
  kind: 'tool' | 'prompt',
  owner: string,
  extra: string[],
): void {
  const fields = [...extra];
  for (const property of config.getProperties()) {
    const named = Node.isPropertyAssignment(property) || Node.isShorthandPropertyAssignment(property);
    const key = named ? property.getName() : undefined;
    if (named && (key === 'inputSchema' || key === 'outputSchema' || key === 'argsSchema')) {
      const value = Node.isPropertyAssignment(property)
        ? property.getInitializerOrThrow()
        : property.getNameNode();
      const schema = schemaText(context, value);
      const renamed = key === 'outputSchema' ? 'output' : 'input';
      context.edits.replace(property.getStart(), property.getEnd(), `${renamed}: ${schema.text}`);
      if (schema.complete.length > 0) {
        fields.push(`complete: { ${schema.complete.map(([k, v]) => `${k}: ${v}`).join(', ')} }`);
      }
      continue;
    }
    if (key !== undefined && (kind === 'tool' ? KEPT_TOOL : KEPT_PROMPT).has(key)) continue;
    removeProperty(context, property);
    context.leave(
      config,
      'config',
      `${owner}: "${key ?? property.getText()}" has no Boomerang counterpart and was removed from the config.`,
    );
  }
  appendFields(context, config, fields);
}

/** Removes a property and its trailing comma. */
function removeProperty(context: FileContext, property: Node): void {
  const comma = property.getNextSiblingIfKind(SyntaxKind.CommaToken);
  context.edits.replace(property.getStart(), comma?.getEnd() ?? property.getEnd(), '');
}

/** Adds `fields` at the end of an object literal. */
function appendFields(context: FileContext, object: ObjectLiteralExpression, fields: string[]): void {
  if (fields.length === 0) return;
  const properties = object.getProperties();
  const last = properties.at(-1);
  if (last === undefined) {
    context.edits.replace(object.getStart(), object.getEnd(), `{ ${fields.join(', ')} }`);
    return;
  }
  const comma = last.getNextSiblingIfKind(SyntaxKind.CommaToken);
  context.edits.insert(comma?.getEnd() ?? last.getEnd(), `${comma ? ' ' : ', '}${fields.join(', ')}`);
}

/** The config fields of v1's `tool(name, description?, shape?, annotations?, cb)` / `prompt(name, description?, shape?, cb)`. */
function v1Config(
  context: FileContext,
  middle: Node[],
  isTool: boolean,
): { fields: string[]; hasSchema: boolean } {
  const fields: string[] = [];
  let hasSchema = false;
  for (const argument of middle) {
    if (
      Node.isStringLiteral(argument) ||
      Node.isNoSubstitutionTemplateLiteral(argument) ||
      Node.isTemplateExpression(argument)
    ) {
      fields.push(`description: ${argument.getText()}`);
    } else if (!hasSchema && isZodShapeArgument(argument)) {
      const schema = schemaText(context, argument);
      fields.push(`input: ${schema.text}`);
      if (schema.complete.length > 0)
        fields.push(`complete: { ${schema.complete.map(([k, v]) => `${k}: ${v}`).join(', ')} }`);
      hasSchema = true;
    } else if (isTool) {
      fields.push(`annotations: ${argument.getText()}`);
    } else {
      context.leave(
        argument,
        'prompt',
        `this prompt() argument is neither a description nor a zod shape; check the config by hand.`,
      );
    }
  }
  return { fields, hasSchema };
}

/** registerResource(name, uriOrTemplate, config, cb) / resource(name, uriOrTemplate, [config,] cb). */
function convertResource(
  context: FileContext,
  call: CallExpression,
  handler: Node,
  owner: string,
  registration: Node,
): void {
  if (!Node.isArrowFunction(handler) && !Node.isFunctionExpression(handler)) return;
  const args = call.getArguments();
  const [name, target] = args;
  const config = args.length === 4 ? args[2] : undefined;
  if (name === undefined || target === undefined || args.length < 3) {
    context.leave(call, 'resource', `${owner}: unexpected arguments; convert it by hand.`);
    return;
  }
  const fields = [`name: ${name.getText()}`];
  if (config !== undefined) {
    if (!Node.isObjectLiteralExpression(config)) fields.push(`...${config.getText()}`);
    else {
      for (const property of config.getProperties()) {
        const key =
          Node.isPropertyAssignment(property) || Node.isShorthandPropertyAssignment(property)
            ? property.getName()
            : undefined;
        if (key !== undefined && KEPT_RESOURCE.has(key)) fields.push(property.getText());
        else
          context.leave(
            config,
            'config',
            `${owner}: "${key ?? property.getText()}" has no Boomerang counterpart and was removed from the config.`,
          );
      }
    }
  }
  const template = templateOf(context, target, owner, fields);
  if (template === null) return;
  const uri = template ?? target.getText();
  const kind: HandlerKind = template === undefined ? 'static' : 'template';
  const templateValue = template === undefined ? undefined : templateString(target);
  convertHandler(context, {
    fn: handler,
    kind,
    registration,
    owner,
    uri: kind === 'static' ? uri : templateValue,
  });
  const callee = call.getExpression();
  if (Node.isPropertyAccessExpression(callee)) {
    const method = kind === 'static' ? 'resource' : 'resourceTemplate';
    context.edits.replace(callee.getNameNode().getStart(), callee.getNameNode().getEnd(), method);
    context.note(call, 'rewritten', callee.getName(), `${owner}: became ${method}(${uri}, …).`);
  }
  context.edits.replace(name.getStart(), handler.getStart(), `${uri}, { ${fields.join(', ')} }, `);
}

/** A template's string expression (and its `complete` moved into `fields`); `undefined` for a static URI; `null` when left. */
function templateOf(
  context: FileContext,
  target: Node,
  owner: string,
  fields: string[],
): string | undefined | null {
  if (
    !Node.isNewExpression(target) ||
    context.officialName(target.getExpression())?.name !== 'ResourceTemplate'
  ) {
    if (Node.isIdentifier(target) && context.officialName(target) === undefined) {
      const type = target.getType().getSymbol()?.getName();
      if (type === 'ResourceTemplate') {
        context.leave(
          target,
          'ResourceTemplate',
          `${owner}: the template is built elsewhere; pass its template string to resourceTemplate(template, config, handler) by hand.`,
        );
        return null;
      }
    }
    return undefined;
  }
  const [template, options] = target.getArguments();
  if (template === undefined) return null;
  if (Node.isObjectLiteralExpression(options)) {
    for (const property of options.getProperties()) {
      const key =
        Node.isPropertyAssignment(property) || Node.isShorthandPropertyAssignment(property)
          ? property.getName()
          : '';
      const value = Node.isPropertyAssignment(property) ? property.getInitializer() : undefined;
      if (key === 'complete') fields.push(property.getText());
      else if (key === 'list' && value !== undefined && value.getText() === 'undefined') continue;
      else
        context.leave(
          target,
          'ResourceTemplate',
          `${owner}: the template's "${key}" callback has no Boomerang counterpart (a template does not list its resources; register the ones to list with resource(uri, ...)).`,
        );
    }
  }
  return template.getText();
}

function templateString(target: Node): string | undefined {
  if (!Node.isNewExpression(target)) return undefined;
  const [template] = target.getArguments();
  if (Node.isStringLiteral(template) || Node.isNoSubstitutionTemplateLiteral(template))
    return template.getLiteralText();
  return undefined;
}
