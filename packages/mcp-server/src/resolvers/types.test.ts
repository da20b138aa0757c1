// Compile-time contract of resolvers. These assertions are checked by `tsc` (the package's `typecheck` script
// includes every test file): an `expectTypeOf` mismatch or an unused `@ts-expect-error` fails the typecheck.
// At run time the same calls execute; those the builders also refuse at run time assert their TypeError.
import type { CreateMessageResult, ListRootsResult } from '@boomerang/protocol';
import type { RequestContext } from '@boomerang/server';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  type AnyResolver,
  type ElicitOutcome,
  elicit,
  elicitResult,
  elicitUrl,
  elicitUrlResult,
  listRoots,
  type NeedsOf,
  planResolvers,
  type Question,
  type ResolvedValues,
  type ResolveMapFor,
  type Resolver,
  resolver,
  sample,
  type ValueOf,
} from './index.js';

/** A stand-in for the core's registration: `resolve` constrained by the tool's argument types. */
function tool<I extends z.ZodObject, R extends ResolveMapFor<z.output<I>>>(
  _config: { input: I; resolve: R },
  _handler: (args: z.output<I>, resolved: ResolvedValues<R>) => void,
): void {}

const Input = z.object({ title: z.string(), qty: z.number().int(), note: z.string().optional() });

const stock = resolver({ args: ['title'] }, ({ title }: { title: string }) => ({ count: title.length }));
const untyped = resolver({ args: ['title'] }, ({ title }) => String(title));
const backorder = resolver({ args: ['title'], uses: { stock } }, ({ stock, title }) =>
  stock.count > 0
    ? { confirm: true as boolean }
    : elicit(`Backorder ${title}?`, z.object({ confirm: z.boolean() })),
);
const delivery = resolver({ uses: { stock } }, async ({ stock }) => (stock.count > 0 ? 2 : 14));

describe('resolver types', () => {
  it('infers the value type from fn; a question resolves to its answer type', () => {
    expectTypeOf<ValueOf<typeof stock>>().toEqualTypeOf<{ count: number }>();
    expectTypeOf<ValueOf<typeof backorder>>().toEqualTypeOf<{ confirm: boolean }>();
    expectTypeOf<ValueOf<typeof delivery>>().toEqualTypeOf<2 | 14>();
    const form = resolver({}, () =>
      elicit('Q?', z.object({ n: z.string().transform(Number), b: z.boolean().default(false) })),
    );
    expectTypeOf<ValueOf<typeof form>>().toEqualTypeOf<{ n: number; b: boolean }>();
    const outcome = resolver({}, () => elicitResult('Q?', z.object({ ok: z.boolean() })));
    expectTypeOf<ValueOf<typeof outcome>>().toEqualTypeOf<ElicitOutcome<{ ok: boolean }>>();
    expectTypeOf<ValueOf<typeof outcome>>().toEqualTypeOf<
      { action: 'accept'; content: { ok: boolean } } | { action: 'decline' } | { action: 'cancel' }
    >();
    const url = resolver({}, async () => elicitUrl('Sign in', 'https://x.example'));
    expectTypeOf<ValueOf<typeof url>>().toEqualTypeOf<{ action: 'accept' }>();
    const urlOutcome = resolver({}, () => elicitUrlResult('Sign in', 'https://x.example'));
    expectTypeOf<ValueOf<typeof urlOutcome>>().toEqualTypeOf<
      { action: 'accept' } | { action: 'decline' } | { action: 'cancel' }
    >();
    const sampled = resolver({}, () => sample({ messages: [], maxTokens: 5 }));
    expectTypeOf<ValueOf<typeof sampled>>().toEqualTypeOf<CreateMessageResult>();
    const roots = resolver({}, () => listRoots());
    expectTypeOf<ValueOf<typeof roots>>().toEqualTypeOf<ListRootsResult>();
  });

  it('types the input from args (unknown unless annotated) and uses, and passes the request context', () => {
    resolver({ args: ['title', 'qty'], uses: { stock } }, (input, ctx) => {
      expectTypeOf(input.title).toBeUnknown();
      expectTypeOf(input.stock).toEqualTypeOf<{ count: number }>();
      expectTypeOf(ctx).toEqualTypeOf<RequestContext>();
      return 1;
    });
  });

  it('records the arguments a resolver needs, through uses', () => {
    expectTypeOf<NeedsOf<typeof stock>>().toEqualTypeOf<{ title: string }>();
    expectTypeOf<NeedsOf<typeof untyped>>().toEqualTypeOf<{ title: unknown }>();
    expectTypeOf<NeedsOf<typeof delivery>>().toEqualTypeOf<{ title: string }>();
    const none = resolver({}, () => 1);
    expectTypeOf(none).toExtend<Resolver<number>>();
  });

  it('rejects annotations that do not match args or uses', () => {
    // @ts-expect-error 'isbn' is neither an argument nor a uses name
    resolver({ args: ['title'] }, ({ isbn }: { title: string; isbn: string }) => isbn);
    // @ts-expect-error the annotation of 'stock' does not accept its value
    resolver({ uses: { stock } }, ({ stock }: { stock: string }) => stock);
    // A wider annotation of a uses value is fine.
    resolver({ uses: { stock } }, ({ stock }: { stock: { count: number | string } }) => stock);
    // @ts-expect-error reading a name the resolver did not declare
    resolver({ args: ['title'] }, ({ qty }) => qty);
    // @ts-expect-error uses are resolvers
    resolver({ uses: { n: 1 } }, () => 1);
    // Also refused at run time:
    // @ts-expect-error args are names
    expect(() => resolver({ args: [1] }, () => 1)).toThrow(TypeError);
    // @ts-expect-error a spec is an object
    expect(() => resolver(null, () => 1)).toThrow(TypeError);
  });

  it('rejects non-form schemas and non-question builders at compile time', () => {
    // @ts-expect-error a form schema is an object schema
    expect(() => elicit('Q?', z.string())).toThrow(TypeError);
    // @ts-expect-error sampling needs messages and maxTokens
    expect(() => sample({ messages: [] })).toThrow(TypeError);
    expectTypeOf(elicit('Q?', z.object({ a: z.string() }))).toEqualTypeOf<Question<{ a: string }>>();
  });
});

describe('resolve maps', () => {
  it('types `resolved` from the map', () => {
    tool({ input: Input, resolve: { stock, backorder, delivery, untyped } }, (args, resolved) => {
      expectTypeOf(args.title).toEqualTypeOf<string>();
      expectTypeOf(resolved.stock).toEqualTypeOf<{ count: number }>();
      expectTypeOf(resolved.backorder).toEqualTypeOf<{ confirm: boolean }>();
      expectTypeOf(resolved.delivery).toEqualTypeOf<2 | 14>();
      expectTypeOf(resolved.untyped).toEqualTypeOf<string>();
      expectTypeOf(resolved).branded.toEqualTypeOf<{
        stock: { count: number };
        backorder: { confirm: boolean };
        delivery: 2 | 14;
        untyped: string;
      }>();
    });
  });

  it('rejects a resolver naming an argument the tool does not have', () => {
    const byIsbn = resolver({ args: ['isbn'] }, ({ isbn }) => isbn);
    // @ts-expect-error the tool has no 'isbn' argument
    tool({ input: Input, resolve: { byIsbn } }, () => {});
    const nested = resolver({ uses: { byIsbn } }, () => 1);
    // @ts-expect-error nor through uses
    tool({ input: Input, resolve: { nested } }, () => {});
  });

  it('rejects a resolver whose argument type does not match', () => {
    const wantsNumber = resolver({ args: ['title'] }, ({ title }: { title: number }) => title);
    // @ts-expect-error 'title' is a string on this tool
    tool({ input: Input, resolve: { wantsNumber } }, () => {});
    const wantsString = resolver({ args: ['note'] }, ({ note }: { note: string }) => note);
    // @ts-expect-error 'note' is optional on this tool
    tool({ input: Input, resolve: { wantsString } }, () => {});
    const acceptsMissing = resolver({ args: ['note'] }, ({ note }: { note: string | undefined }) => note);
    tool({ input: Input, resolve: { acceptsMissing } }, () => {});
    const widens = resolver({ args: ['qty'] }, ({ qty }: { qty: number | string }) => qty);
    tool({ input: Input, resolve: { widens } }, () => {});
  });

  it('rejects a resolved name that collides with an input property, and non-resolvers', () => {
    // @ts-expect-error 'title' is an input property
    tool({ input: Input, resolve: { title: stock } }, () => {});
    // @ts-expect-error not a resolver
    tool({ input: Input, resolve: { stock: () => 1 } }, () => {});
  });

  it('checks loose inputs by their declared properties', () => {
    const Loose = z.looseObject({ title: z.string(), note: z.string().optional() });
    tool({ input: Loose, resolve: { stock } }, (_args, resolved) => {
      expectTypeOf(resolved.stock).toEqualTypeOf<{ count: number }>();
    });
    const wantsNumber = resolver({ args: ['title'] }, ({ title }: { title: number }) => title);
    // @ts-expect-error 'title' is a string on this tool
    tool({ input: Loose, resolve: { wantsNumber } }, () => {});
    const wantsString = resolver({ args: ['note'] }, ({ note }: { note: string }) => note);
    // @ts-expect-error 'note' is optional on this tool
    tool({ input: Loose, resolve: { wantsString } }, () => {});
    // @ts-expect-error 'title' is an input property
    tool({ input: Loose, resolve: { title: stock } }, () => {});
    const extra = resolver({ args: ['isbn'] }, ({ isbn }) => isbn);
    // @ts-expect-error only declared arguments, as planResolvers checks at run time
    tool({ input: Loose, resolve: { extra } }, () => {});
  });

  it('checks inputs without arguments', () => {
    const none = resolver({}, () => 1);
    tool({ input: z.object({}), resolve: { none } }, () => {});
    // @ts-expect-error the tool has no arguments
    tool({ input: z.object({}), resolve: { stock } }, () => {});
  });

  it('accepts any map in planResolvers, and resolvers as AnyResolver', () => {
    expectTypeOf(stock).toExtend<AnyResolver>();
    expectTypeOf(backorder).toExtend<ResolveMapFor<z.output<typeof Input>>[string]>();
    planResolvers("tool 'x'", { stock, backorder, delivery }, ['title']);
  });
});
