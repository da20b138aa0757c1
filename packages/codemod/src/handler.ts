// A handler's move from the official signatures to Boomerang's: `(args, ctx)` / `(ctx)` become
// `(args, resolved, ctx)`, a static resource's `(uri, ctx)` becomes `(ctx)` and a template's `(uri, vars, ctx)`
// becomes `(vars, resolved, ctx)`; reads of the official context become reads of Boomerang's.
import {
  type ArrowFunction,
  type FunctionExpression,
  Node,
  type ParameterDeclaration,
  type PropertyAccessExpression,
  SyntaxKind,
} from 'ts-morph';
import { convertElicitations } from './elicit.js';
import { type FileContext, indentationOf } from './file-context.js';
import { askMessage, type HandlerKind, type HandlerPlan } from './plan.js';

/** The resolvers a converted handler needs in its registration's `resolve`. */
export interface HandlerResult {
  readonly resolve: ReadonlyArray<{ readonly key: string; readonly resolver: string }>;
}

/** The official parameters of a handler, by role. */
interface OfficialParams {
  readonly uri?: ParameterDeclaration | undefined;
  readonly args?: ParameterDeclaration | undefined;
  readonly ctx?: ParameterDeclaration | undefined;
}

function officialParams(kind: HandlerKind, params: ParameterDeclaration[]): OfficialParams {
  switch (kind) {
    case 'args':
      return { args: params[0], ctx: params[1] };
    case 'no-args':
      return { ctx: params[0] };
    case 'static':
      return { uri: params[0], ctx: params[1] };
    case 'template':
      return { uri: params[0], args: params[1], ctx: params[2] };
  }
}

/** Converts one handler in place (through the file's edits); returns the resolvers its registration needs. */
export function convertHandler(context: FileContext, plan: HandlerPlan): HandlerResult {
  const { fn, kind } = plan;
  const params = fn.getParameters();
  const official = officialParams(kind, params);
  if (params.length > (kind === 'template' ? 3 : kind === 'no-args' ? 1 : 2)) {
    context.leave(
      fn,
      'handler',
      `${plan.owner}: its handler takes more parameters than the official SDK passes.`,
    );
    return { resolve: [] };
  }
  const resolve = convertElicitations(context, plan, official.args, official.ctx);
  // A context only the converted questions read is not a parameter any more (checked before its reads are
  // rewritten, whose edits cover the remaining references).
  const keepCtx = official.ctx !== undefined && isStillUsed(context, official.ctx);
  if (official.ctx !== undefined) rewriteContextReads(context, fn, official.ctx);
  const preamble: string[] = [];
  let first = official.args?.getText();
  if (official.uri !== undefined && isUsed(official.uri)) {
    const uri = uriExpression(context, plan, official.args);
    if (
      uri.vars !== undefined &&
      official.args !== undefined &&
      !Node.isIdentifier(official.args.getNameNode())
    ) {
      preamble.push(`const ${official.args.getNameNode().getText()} = ${uri.vars};`);
      first = uri.vars;
    } else if (uri.vars !== undefined && official.args === undefined) {
      first = uri.vars;
    }
    preamble.push(`const ${official.uri.getNameNode().getText()} = ${uri.text};`);
  }
  const ctxText = keepCtx ? official.ctx?.getNameNode().getText() : undefined;
  const resolvedText =
    resolve.length > 0
      ? `{ ${resolve.map((r) => r.key).join(', ')} }`
      : ctxText !== undefined
        ? '_resolved'
        : undefined;
  const list: string[] = [];
  if (kind === 'static') {
    if (ctxText !== undefined) list.push(ctxText);
  } else {
    const needFirst = first !== undefined || resolvedText !== undefined || ctxText !== undefined;
    if (needFirst) list.push(first ?? (kind === 'template' ? '_vars' : '_args'));
    if (resolvedText !== undefined || ctxText !== undefined) list.push(resolvedText ?? '_resolved');
    if (ctxText !== undefined) list.push(ctxText);
  }
  replaceParameters(context, fn, list.join(', '));
  if (preamble.length > 0) insertPreamble(context, fn, preamble);
  return { resolve };
}

function isStillUsed(context: FileContext, param: ParameterDeclaration): boolean {
  const name = param.getNameNode();
  if (!Node.isIdentifier(name)) return true;
  return name
    .findReferencesAsNodes()
    .some(
      (reference) => reference !== name && !context.edits.overlaps(reference.getStart(), reference.getEnd()),
    );
}

function isUsed(param: ParameterDeclaration): boolean {
  const name = param.getNameNode();
  if (!Node.isIdentifier(name)) return true;
  return name.findReferencesAsNodes().some((reference) => reference !== name);
}

/** The expression that rebuilds the `uri` the official SDK passed (Boomerang passes the variables only). */
function uriExpression(
  context: FileContext,
  plan: HandlerPlan,
  vars: ParameterDeclaration | undefined,
): { text: string; vars?: string } {
  if (plan.kind === 'static') return { text: `new URL(${plan.uri ?? "''"})` };
  const template = plan.uri ?? '';
  const varsName =
    vars !== undefined && Node.isIdentifier(vars.getNameNode()) ? vars.getNameNode().getText() : 'vars';
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const open = template.indexOf('{', i);
    if (open < 0) {
      out += escapeTemplate(template.slice(i));
      break;
    }
    const close = template.indexOf('}', open);
    const name = template.slice(open + 1, close);
    if (close < 0 || !/^[A-Za-z0-9_]+$/.test(name)) {
      context.leave(
        plan.fn,
        'uri',
        `${plan.owner}: its handler reads the URI, which Boomerang does not pass to a template handler; the template uses operators the codemod does not expand, so rebuild the URI from the variables yourself.`,
      );
      return { text: `new URL('${escapeQuote(template)}')`, vars: varsName };
    }
    out += `${escapeTemplate(template.slice(i, open))}\${encodeURIComponent(String(${varsName}${member(name)}))}`;
    i = close;
  }
  return { text: `new URL(\`${out}\`)`, vars: varsName };
}

/** `.name`, or `["name"]` for a variable name that is not an identifier (`{1st}`). */
function member(name: string): string {
  return /^[A-Za-z_]\w*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

function escapeTemplate(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('`', '\\`').replaceAll('${', '\\${');
}

function escapeQuote(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll("'", "\\'");
}

/** Replaces the whole parameter list, parentheses included. */
function replaceParameters(context: FileContext, fn: ArrowFunction | FunctionExpression, list: string): void {
  const open = fn.getFirstChildByKind(SyntaxKind.OpenParenToken);
  const close = fn.getFirstChildByKind(SyntaxKind.CloseParenToken);
  if (open !== undefined && close !== undefined) {
    context.edits.replace(open.getStart(), close.getEnd(), `(${list})`);
    return;
  }
  const params = fn.getParameters();
  const only = params[0];
  if (only !== undefined) context.edits.replace(only.getStart(), only.getEnd(), `(${list})`);
}

/** Inserts statements at the top of the body (an expression body becomes a block that returns it). */
function insertPreamble(
  context: FileContext,
  fn: ArrowFunction | FunctionExpression,
  statements: string[],
): void {
  const body = fn.getBody();
  const indent = `${indentationOf(fn)}    `;
  if (Node.isBlock(body)) {
    context.edits.insert(body.getStart() + 1, statements.map((s) => `\n${indent}${s}`).join(''));
    return;
  }
  const open = `{\n${statements.map((s) => `${indent}${s}\n`).join('')}${indent}return `;
  const close = `;\n${indentationOf(fn)}}`;
  if (Node.isParenthesizedExpression(body)) {
    // `=> ({ … })` becomes `=> { …; return { … }; }`: the parentheses are not needed after `return`.
    context.edits.replace(body.getStart(), body.getStart() + 1, open);
    context.edits.replace(body.getEnd() - 1, body.getEnd(), close);
    return;
  }
  context.edits.insert(body.getStart(), open);
  context.edits.insert(body.getEnd(), close);
}

const V2_REQUEST: Readonly<Record<string, string>> = {
  signal: 'signal',
  id: 'requestId',
  method: 'method',
  _meta: 'meta',
  log: 'log',
  inputResponses: 'inputResponses',
};
const V1_EXTRA: Readonly<Record<string, string>> = {
  signal: 'signal',
  requestId: 'requestId',
  _meta: 'meta',
  authInfo: 'auth',
};

/** Rewrites `ctx.mcpReq.signal`, `ctx.http?.authInfo`, `extra.signal`, … to Boomerang's `RequestContext`. */
function rewriteContextReads(context: FileContext, fn: Node, param: ParameterDeclaration): void {
  const nameNode = param.getNameNode();
  if (!Node.isIdentifier(nameNode)) {
    context.leave(
      param,
      'ctx',
      "The handler destructures the official context; read Boomerang's RequestContext instead.",
    );
    return;
  }
  const name = nameNode.getText();
  for (const reference of nameNode.findReferencesAsNodes()) {
    if (reference === nameNode || !fn.containsRange(reference.getPos(), reference.getEnd())) continue;
    const access = reference.getParent();
    if (!Node.isPropertyAccessExpression(access) || access.getExpression() !== reference) {
      if (!Node.isParameterDeclaration(access)) {
        context.leave(
          reference,
          'ctx',
          `"${name}" is now Boomerang's RequestContext (signal, auth, requestId, meta, log, sendProgress), not the official context.`,
        );
      }
      continue;
    }
    rewriteOneRead(context, name, access);
  }
}

function rewriteOneRead(context: FileContext, name: string, access: PropertyAccessExpression): void {
  const member = access.getName();
  const outer = access.getParent();
  const inner =
    Node.isPropertyAccessExpression(outer) && outer.getExpression() === access ? outer : undefined;
  if (member === 'mcpReq' || member === 'http') {
    const key = inner?.getName();
    // elicitInput is the resolver rule's (converted, or left with its comment); requestState the phase rule's.
    if (key === 'elicitInput' || key === 'requestState') return;
    const target =
      key === undefined
        ? undefined
        : member === 'mcpReq'
          ? V2_REQUEST[key]
          : key === 'authInfo'
            ? 'auth'
            : undefined;
    if (inner !== undefined && target !== undefined) {
      context.edits.replace(inner.getStart(), inner.getEnd(), `${name}.${target}`);
      return;
    }
    if (key === 'requestSampling') {
      context.leave(access, key, askMessage(key), 'guides/resolvers.md');
      return;
    }
    const hint =
      key === 'notify'
        ? ` Progress: ${name}.sendProgress(progress, total, message); logs: ${name}.log(level, data).`
        : '';
    context.leave(
      access,
      'ctx',
      `${name}.${member}${key ? `.${key}` : ''} has no Boomerang counterpart on RequestContext.${hint}`,
    );
    return;
  }
  const target = V1_EXTRA[member];
  if (target !== undefined) {
    if (target !== member) context.edits.replace(access.getStart(), access.getEnd(), `${name}.${target}`);
    return;
  }
  if (member === 'sendRequest') {
    context.leave(access, 'sendRequest', askMessage('sendRequest'), 'guides/resolvers.md');
    return;
  }
  const progress =
    member === 'sendNotification' ? ' For progress use ctx.sendProgress(progress, total, message).' : '';
  context.leave(
    access,
    'ctx',
    `${name}.${member} has no Boomerang counterpart on RequestContext.${progress}`,
  );
}
