import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyResolver, elicit, planResolvers, ResolverGraphError, resolver } from './index.js';
import { planOf } from './plan.js';

const value = resolver({}, () => 1);

/** The error `planResolvers` throws, failing when it does not. */
function planError(...args: Parameters<typeof planResolvers>): Error {
  try {
    planResolvers(...args);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected planResolvers to throw');
}

describe('planResolvers: registration checks', () => {
  it('rejects an unknown argument, naming the owner, the resolver and the argument', () => {
    const byIsbn = resolver({ args: ['isbn'] }, ({ isbn }) => isbn);
    const error = planError("tool 'order_book'", { stock: byIsbn }, ['title', 'qty']);
    expect(error).toBeInstanceOf(ResolverGraphError);
    expect(error.name).toBe('ResolverGraphError');
    expect(error.message).toBe(
      "tool 'order_book': resolver 'stock' names unknown argument 'isbn' (arguments: 'title', 'qty')",
    );
  });

  it('rejects an unknown argument of a nested resolver, naming it by path', () => {
    const inner = resolver({ args: ['isbn'] }, () => 1);
    const outer = resolver({ uses: { inner } }, () => 2);
    expect(planError('t', { outer }, []).message).toBe(
      "t: resolver 'outer.inner' names unknown argument 'isbn' (arguments: none)",
    );
  });

  it('rejects a resolved name that collides with an input property', () => {
    const error = planError("tool 'order_book'", { title: value }, ['title']);
    expect(error).toBeInstanceOf(ResolverGraphError);
    expect(error.message).toBe("tool 'order_book': resolved name 'title' collides with an input property");
  });

  it('rejects a member that is not a resolver', () => {
    for (const bad of [() => 1, { args: [] }, null, 42, elicit('Q?', z.object({}))]) {
      const error = planError('t', { stock: bad as unknown as AnyResolver }, []);
      expect(error).toBeInstanceOf(ResolverGraphError);
      expect(error.message).toMatch(
        /^t: resolve\.stock is not a resolver \(got \w+\); build it with resolver\(\)$/,
      );
    }
  });

  it('rejects a uses member that is not a resolver', () => {
    const bad = resolver({ uses: { dep: 'nope' as unknown as AnyResolver } }, () => 1);
    expect(planError('t', { bad }, []).message).toBe(
      "t: resolver 'bad' uses 'dep', which is not a resolver (got string); build it with resolver()",
    );
  });

  it('rejects a resolve map that is not an object', () => {
    for (const bad of [null, [], 'x', new Map()]) {
      expect(planError('t', bad as never, [])).toBeInstanceOf(ResolverGraphError);
    }
  });

  it('rejects a name received both as an argument and from uses', () => {
    const r = resolver({ args: ['title'], uses: { title: value } }, () => 1);
    expect(planError('t', { r }, ['title']).message).toBe(
      `t: resolver 'r' receives 'title' both as an argument and from "uses"`,
    );
  });

  it('detects a cycle through uses (forward references through getters)', () => {
    const a: AnyResolver = resolver(
      {
        uses: {
          get b() {
            return b;
          },
        },
      },
      () => 1,
    );
    const b: AnyResolver = resolver({ uses: { a } }, () => 2);
    const error = planError('t', { a }, []);
    expect(error).toBeInstanceOf(ResolverGraphError);
    expect(error.message).toBe("t: resolver 'a' has a cyclic dependency (a → a.b → a)");
  });

  it('detects a self-cycle and a cycle reached from a non-cyclic root', () => {
    const self: AnyResolver = resolver(
      {
        uses: {
          get me() {
            return self;
          },
        },
      },
      () => 1,
    );
    expect(planError('t', { self }, []).message).toBe(
      "t: resolver 'self' has a cyclic dependency (self → self)",
    );
    const root = resolver({ uses: { self } }, () => 1);
    expect(planError('t', { root }, []).message).toMatch(/resolver 'root\.self' has a cyclic dependency/);
  });

  it('reports a uses getter that throws (a forward reference not yet initialised)', () => {
    const r = resolver(
      {
        uses: {
          get later(): AnyResolver {
            throw new ReferenceError('later is not defined');
          },
        },
      },
      () => 1,
    );
    expect(planError('t', { r }, []).message).toBe(
      `t: resolver 'r' has a "uses" that cannot be read (later is not defined)`,
    );
  });

  it('accepts diamonds and shared resolvers (a DAG is not a cycle)', () => {
    const base = resolver({}, () => 1);
    const left = resolver({ uses: { base } }, () => 2);
    const right = resolver({ uses: { base } }, () => 3);
    const top = resolver({ uses: { left, right } }, () => 4);
    const plan = planResolvers('t', { top, base }, []);
    expect(plan.names).toEqual(['top', 'base']);
  });

  it('checks its own arguments', () => {
    expect(() => planResolvers(1 as never, {}, [])).toThrow(TypeError);
    expect(() => planResolvers('t', {}, 'title' as never)).toThrow(TypeError);
    expect(() => planResolvers('t', {}, [1] as never)).toThrow(TypeError);
    expect(() => planResolvers('t', {}, [], { maxStateBytes: 0 })).toThrow(RangeError);
    expect(() => planResolvers('t', {}, [], { maxStateBytes: 1.5 })).toThrow(RangeError);
  });
});

describe('planResolvers: the plan', () => {
  it('lists the resolved names in map order, with the owner and the state cap', () => {
    const plan = planResolvers("tool 'x'", { b: value, a: value }, [], { maxStateBytes: 2048 });
    expect(plan).toEqual({
      owner: "tool 'x'",
      names: ['b', 'a'],
      maxStateBytes: 2048,
      answerBinding: 'question',
    });
    expect(Object.isFrozen(plan)).toBe(true);
  });

  it('numbers resolvers breadth-first: map order first, then uses; one object is one node', () => {
    const leaf = resolver({}, () => 1);
    const mid = resolver({ uses: { leaf } }, () => 2);
    const other = resolver({ uses: { leaf, mid } }, () => 3);
    const { nodes, entries } = planOf(planResolvers('t', { other, mid, again: other }, []));
    expect(nodes.map((n) => [n.key, n.label])).toEqual([
      ['r0', 'other'],
      ['r1', 'mid'],
      ['r2', 'other.leaf'],
    ]);
    expect(entries.map(([name, node]) => [name, node.key])).toEqual([
      ['other', 'r0'],
      ['mid', 'r1'],
      ['again', 'r0'],
    ]);
  });

  it('gives distinct resolvers from one factory distinct keys', () => {
    const ask = (what: string) => resolver({}, () => elicit(`${what}?`, z.object({ v: z.string() })));
    const { nodes } = planOf(planResolvers('t', { a: ask('A'), b: ask('B') }, []));
    expect(nodes.map((n) => n.key)).toEqual(['r0', 'r1']);
  });

  it('snapshots uses at registration', () => {
    const uses: Record<string, AnyResolver> = {};
    const r = resolver({ uses }, () => 1);
    const plan = planResolvers('t', { r }, []);
    uses.late = value;
    expect(planOf(plan).nodes).toHaveLength(1);
  });

  it('refuses a plan it did not make', () => {
    expect(() => planOf({ owner: 't', names: [], maxStateBytes: 1, answerBinding: 'question' })).toThrow(
      TypeError,
    );
  });
});
