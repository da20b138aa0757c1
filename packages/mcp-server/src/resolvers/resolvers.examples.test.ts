import { readFileSync } from 'node:fs';
import { expect, expectTypeOf, it, describe as suite } from 'vitest';
import { planResolvers, type ValueOf } from './index.js';
import {
  blurb,
  type checkStock,
  confirmBackorder,
  estimateDelivery,
  giftWrap,
  workspace,
} from './resolvers.examples.js';
import { accepting, drive } from './test-support/rounds.js';

suite('resolver examples', () => {
  it('README.md quotes every example region verbatim', () => {
    const source = readFileSync(new URL('./resolvers.examples.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const regions = [...source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\n+\/\/ #endregion \1/g)];
    expect(regions.map((m) => m[1])).toEqual(['bookshop', 'outcomes']);
    for (const [, , body] of regions) expect(readme).toContain(body?.trim());
  });

  it('bookshop: in stock, nothing is asked', async () => {
    const plan = planResolvers("tool 'order_book'", { confirmBackorder, estimateDelivery }, ['title']);
    const { values, rounds } = await drive(plan, { title: 'Dune' }, accepting({}));
    expect(rounds).toEqual([]);
    expect(values).toEqual({ confirmBackorder: { confirm: true }, estimateDelivery: '2 days' });
  });

  it('bookshop: out of stock, one question', async () => {
    const plan = planResolvers("tool 'order_book'", { confirmBackorder, estimateDelivery }, ['title']);
    const { values, rounds } = await drive(plan, { title: 'Emma' }, accepting({ confirm: false }));
    expect(rounds).toHaveLength(1);
    expect(values).toEqual({ confirmBackorder: { confirm: false }, estimateDelivery: '3 weeks' });
  });

  it('outcomes: one round asks the form, the sample and the roots together', async () => {
    const plan = planResolvers("tool 'gift'", { giftWrap, blurb, workspace }, ['title']);
    const { values, rounds } = await drive(plan, { title: 'Dune' }, accepting({ wrap: true }));
    expect(rounds).toHaveLength(1);
    expect(values.giftWrap).toEqual({ action: 'accept', content: { wrap: true } });
    expectTypeOf<ValueOf<typeof giftWrap>>().toEqualTypeOf<
      | { action: 'accept'; content: { wrap: boolean; note?: string | undefined } }
      | { action: 'decline' }
      | { action: 'cancel' }
    >();
    expectTypeOf<ValueOf<typeof checkStock>>().toEqualTypeOf<{ title: string; count: number }>();
  });
});
