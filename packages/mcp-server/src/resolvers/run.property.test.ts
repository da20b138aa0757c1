// Property: for any resolver DAG, a client answering every round gets the values a direct computation gives,
// every question is asked exactly once, and the number of rounds is the longest chain of questions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyResolver, elicit, planResolvers, resolver } from './index.js';
import { drive, describe as messageOf } from './test-support/rounds.js';

interface Shape {
  asks: boolean;
  deps: number[];
}

const dag = fc.integer({ min: 1, max: 7 }).chain((n) =>
  fc.tuple(
    ...Array.from({ length: n }, (_, i) =>
      fc.record({
        asks: fc.boolean(),
        deps: fc.subarray(Array.from({ length: i }, (_, j) => j)),
      }),
    ),
  ),
);

const answerTo = (message: string) => [...message].reduce((sum, c) => sum + c.charCodeAt(0), 0);
const numberOf = (value: unknown) => (typeof value === 'number' ? value : (value as { v: number }).v);

/** Builds the resolvers of a shape, counting runs per node. */
function build(shapes: Shape[], runs: number[]) {
  const resolvers: AnyResolver[] = [];
  shapes.forEach(({ asks, deps }, i) => {
    const uses = Object.fromEntries(deps.map((j) => [`d${j}`, resolvers[j] as AnyResolver]));
    resolvers.push(
      resolver({ uses }, (input) => {
        runs[i] = (runs[i] ?? 0) + 1;
        const sum = Object.values(input).reduce<number>((total, value) => total + numberOf(value), 0);
        return asks ? elicit(`Q${i}:${sum}`, z.object({ v: z.number() })) : sum + i;
      }),
    );
  });
  return resolvers;
}

/** The values, the questions and the question depth a direct evaluation gives. */
function expected(shapes: Shape[]) {
  const values: number[] = [];
  const depth: number[] = [];
  const questions: string[] = [];
  shapes.forEach(({ asks, deps }, i) => {
    const sum = deps.reduce((total, j) => total + (values[j] as number), 0);
    const message = `Q${i}:${sum}`;
    if (asks) questions.push(message);
    values.push(asks ? answerTo(message) : sum + i);
    depth.push(Math.max(0, ...deps.map((j) => depth[j] as number)) + (asks ? 1 : 0));
  });
  return { values, questions, rounds: Math.max(0, ...depth) };
}

describe('runResolvers: any resolver graph', () => {
  it('asks each question once, in as many rounds as the longest chain, and resolves every value', async () => {
    await fc.assert(
      fc.asyncProperty(dag, fc.boolean(), async (shapes, reversed) => {
        const runs: number[] = [];
        const resolvers = build(shapes, runs);
        const order = reversed ? [...resolvers.keys()].reverse() : [...resolvers.keys()];
        const map = Object.fromEntries(order.map((i) => [`n${i}`, resolvers[i] as AnyResolver]));
        const asked: string[] = [];
        const { values, rounds } = await drive(planResolvers('t', map, []), {}, (request) => {
          const message = messageOf(request);
          asked.push(message);
          return { action: 'accept', content: { v: answerTo(message) } };
        });
        const want = expected(shapes);
        expect(rounds).toHaveLength(want.rounds);
        expect(asked.sort()).toEqual(want.questions.sort());
        shapes.forEach((_, i) => {
          expect(numberOf(values[`n${i}`])).toBe(want.values[i]);
          // once per round at most: never more often than there were rounds
          expect(runs[i]).toBeLessThanOrEqual(want.rounds + 1);
        });
      }),
      { numRuns: 150 },
    );
  });
});
