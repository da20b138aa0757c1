// Compile-time contracts: checked by `tsc` (typecheck) and by vitest's expectTypeOf. Nothing here needs to run.
import { inputRequired } from '@boomerang/protocol';
import type { RequestContext } from '@boomerang/server';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { ResolverOf } from './index.js';
import { McpServer } from './mcp-server.js';
import { elicit, elicitResult, resolver } from './resolvers/index.js';
import type { NoResolved } from './types.js';

/** Type-checks `fn` without running it: these registrations would (rightly) throw at run time. */
const typeOnly = (_fn: () => unknown) => {};
const mcp = new McpServer({ name: 'types', version: '1' }, { logger: {} });
const ok = { content: [{ type: 'text' as const, text: 'ok' }] };
const ask = inputRequired({ requestState: 's' });
const stock = resolver({ args: ['title'] }, ({ title }: { title: string }) => ({ count: title.length }));
const confirm = resolver({}, () => elicit('Sure?', z.object({ yes: z.boolean() })));
const outcome = resolver({}, () => elicitResult('Sure?', z.object({ yes: z.boolean() })));
const byNumber = resolver({ args: ['title'] }, ({ title }: { title: number }) => title);

describe('handler types', () => {
  it('tools: args from input, resolved from the resolve map, {} without one', () => {
    mcp.tool(
      't1',
      {
        input: z.object({ title: z.string(), n: z.number().default(1) }),
        resolve: { stock, confirm, outcome },
      },
      (args, resolved, ctx) => {
        expectTypeOf(args).toEqualTypeOf<{ title: string; n: number }>();
        expectTypeOf(resolved.stock).toEqualTypeOf<{ count: number }>();
        expectTypeOf(resolved.confirm).toEqualTypeOf<{ yes: boolean }>();
        expectTypeOf(resolved.outcome).toEqualTypeOf<
          { action: 'accept'; content: { yes: boolean } } | { action: 'decline' } | { action: 'cancel' }
        >();
        expectTypeOf(ctx).toEqualTypeOf<RequestContext>();
        return ok;
      },
    );
    mcp.tool('t2', {}, (args, resolved) => {
      expectTypeOf(args).toEqualTypeOf<NoResolved>();
      expectTypeOf(resolved).toEqualTypeOf<NoResolved>();
      return ok;
    });
  });

  it('a tool without resolvers may return an InputRequiredResult; one with resolvers may not', () => {
    mcp.tool('t3', {}, () => ask);
    mcp.tool('t4', { input: z.object({ title: z.string() }) }, async () => (Math.random() > 0.5 ? ask : ok));
    typeOnly(() =>
      // @ts-expect-error a handler with `resolve` cannot return an InputRequiredResult
      mcp.tool('t5', { input: z.object({ title: z.string() }), resolve: { stock } }, () => ask),
    );
    typeOnly(() =>
      // @ts-expect-error not even sometimes
      mcp.tool('t6', { resolve: { confirm } }, async () => (Math.random() > 0.5 ? ask : ok)),
    );
  });

  it('a resolver needing an argument the tool lacks, or of another type, is a compile error', () => {
    typeOnly(() =>
      // @ts-expect-error `stock` needs `title`
      mcp.tool('t7', { input: z.object({ isbn: z.string() }), resolve: { stock } }, () => ok),
    );
    typeOnly(() =>
      // @ts-expect-error `byNumber` needs `title: number`
      mcp.tool('t8', { input: z.object({ title: z.string() }), resolve: { byNumber } }, () => ok),
    );
    typeOnly(() =>
      // @ts-expect-error a resolved name may not shadow an input property
      mcp.tool(
        't9',
        { input: z.object({ title: z.string(), confirm: z.string() }), resolve: { confirm } },
        () => ok,
      ),
    );
  });

  it('output schemas type structuredContent', () => {
    const output = z.object({ total: z.number() });
    mcp.tool('o1', { output }, () => ({ structuredContent: { total: 1 } }));
    mcp.tool('o2', { output }, () => ({ ...ok, isError: true }));
    typeOnly(() =>
      // @ts-expect-error structuredContent must match the output schema
      mcp.tool('o3', { output }, () => ({ structuredContent: { total: 'x' } })),
    );
    typeOnly(() =>
      // @ts-expect-error a plain result without structuredContent
      mcp.tool('o4', { output }, () => ok),
    );
  });

  it('prompts: resolve forbids InputRequiredResult; without it, allowed', () => {
    const messages = { messages: [] };
    mcp.prompt('p1', { input: z.object({ title: z.string() }) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ title: string }>();
      return ask;
    });
    mcp.prompt('p2', { input: z.object({ title: z.string() }), resolve: { stock } }, (_a, r) => {
      expectTypeOf(r.stock.count).toBeNumber();
      return messages;
    });
    typeOnly(() =>
      // @ts-expect-error a prompt with `resolve` cannot return an InputRequiredResult
      mcp.prompt('p3', { resolve: { confirm } }, () => ask),
    );
    typeOnly(() =>
      mcp.prompt(
        'p4',
        // @ts-expect-error completers name arguments
        { input: z.object({ title: z.string() }), complete: { nope: () => [] } },
        () => messages,
      ),
    );
  });

  it('prompt arguments must accept strings (z.coerce is fine)', () => {
    mcp.prompt('p5', { input: z.object({ n: z.coerce.number(), tone: z.enum(['dry', 'warm']) }) }, () => ({
      messages: [],
    }));
    typeOnly(() =>
      // @ts-expect-error prompt argument 'n' must accept a string: use z.coerce
      mcp.prompt('p6', { input: z.object({ n: z.number() }) }, () => ({ messages: [] })),
    );
  });

  it('resources: a static resource cannot ask; templates type their variables', () => {
    const contents = { contents: [] };
    mcp.resource('x://a', {}, () => contents);
    typeOnly(() =>
      // @ts-expect-error a static resource cannot return an InputRequiredResult
      mcp.resource('x://b', {}, () => ask),
    );
    mcp.resourceTemplate('x://{title}{?page}', {}, (vars, resolved) => {
      expectTypeOf(vars).toEqualTypeOf<{ title: string; page?: string }>();
      expectTypeOf(resolved).toEqualTypeOf<NoResolved>();
      return ask;
    });
    mcp.resourceTemplate('y://{title}', { resolve: { stock } }, (_vars, { stock: s }) => {
      expectTypeOf(s).toEqualTypeOf<{ count: number }>();
      return contents;
    });
    typeOnly(() =>
      // @ts-expect-error a template with `resolve` cannot return an InputRequiredResult
      mcp.resourceTemplate('z://{title}', { resolve: { stock } }, () => ask),
    );
    typeOnly(() =>
      // @ts-expect-error `stock` needs `title`, the template has `id`
      mcp.resourceTemplate('w://{id}', { resolve: { stock } }, () => contents),
    );
  });
});

describe('public resolver types', () => {
  it('names the type resolver() returns, so consumers can export their resolvers (declaration emit)', () => {
    expectTypeOf(stock).toEqualTypeOf<
      ResolverOf<{ title: string }, 'title', Record<never, never>, { count: number }>
    >();
  });
});
