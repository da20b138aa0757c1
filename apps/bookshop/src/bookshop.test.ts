import { Client, type ClientOptions } from '@boomerang/client';
import type { ElicitRequestParams, ElicitResult } from '@boomerang/protocol';
import { connectInMemory } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { createBookshopServer } from './bookshop.js';
import { FAKE_MODEL, fakeLlm, rootsOf } from './callbacks.js';
import { createSignInDesk, type SignInDesk } from './sign-in.js';

/** Every input request a client answered: the round, the kind, and the message (for elicitations). */
type Asked = { round: number; kind: string; message?: string };

/**
 * A client over the in-memory pair whose elicitation callback answers by message (`answers(params)`), that
 * samples the fake LLM and shares `/tmp/shop` as its root; it records what it was asked.
 */
async function connect(
  answer: (params: ElicitRequestParams) => ElicitResult | Promise<ElicitResult> = () => ({
    action: 'accept',
    content: {},
  }),
  extra: Partial<ClientOptions> = {},
  desk: SignInDesk = createSignInDesk(),
) {
  const asked: Asked[] = [];
  const client = new Client(
    { name: 'test', version: '1.0.0' },
    {
      elicitation: (params, ctx) => {
        asked.push({
          round: ctx.round,
          kind: params.mode === 'url' ? 'url' : 'form',
          message: params.message,
        });
        return answer(params);
      },
      sampling: (params, ctx) => {
        asked.push({ round: ctx.round, kind: 'sampling' });
        return fakeLlm(params);
      },
      roots: (ctx) => {
        asked.push({ round: ctx.round, kind: 'roots' });
        return rootsOf('/tmp/shop');
      },
      ...extra,
    },
  );
  const link = await connectInMemory(client, createBookshopServer({ signIn: desk }));
  const call = async (tool: string, args: Record<string, unknown>) => {
    const result = await client.callTool(tool, args);
    const text = result.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    return { result, text, isError: result.isError === true };
  };
  return { client, asked, call, [Symbol.asyncDispose]: () => link[Symbol.asyncDispose]() };
}

/** Answers by the first word of the form's first field: backorder, shipping or gift. */
function shopper(overrides: { backorder?: ElicitResult; shipping?: ElicitResult; gift?: ElicitResult } = {}) {
  return (params: ElicitRequestParams): ElicitResult => {
    if (params.mode === 'url') return { action: 'accept' };
    const fields = Object.keys(params.requestedSchema.properties);
    if (fields.includes('confirm'))
      return overrides.backorder ?? { action: 'accept', content: { confirm: true } };
    if (fields.includes('shipping')) {
      return (
        overrides.shipping ?? {
          action: 'accept',
          content: { shipping: 'standard', copies: 1, binding: 'paperback' },
        }
      );
    }
    return overrides.gift ?? { action: 'accept', content: { wrap: false } };
  };
}

describe('check_stock (a pure resolver)', () => {
  it('answers in one round trip, asking nothing', async () => {
    await using shop = await connect();
    expect((await shop.call('check_stock', { title: 'Dune' })).text).toBe(
      '"Dune" by Frank Herbert: 3 in stock, EUR 12.50.',
    );
    expect((await shop.call('check_stock', { title: 'solaris' })).text).toContain('out of stock');
    expect((await shop.call('check_stock', { title: 'Ulysses' })).text).toBe(
      '"Ulysses" is not in our catalogue.',
    );
    expect(shop.asked).toEqual([]);
  });

  it('publishes only the title: resolved values are invisible to the model', async () => {
    await using shop = await connect();
    const { tools } = await shop.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'check_stock',
      'order_book',
      'write_blurb',
      'export_wishlist',
      'order_history',
    ]);
    const order = tools.find((t) => t.name === 'order_book');
    expect(Object.keys(order?.inputSchema.properties ?? {})).toEqual(['title']);
  });
});

describe('order_book (confirm_backorder, estimate_delivery, gift)', () => {
  it('in stock: no backorder question; shipping and gift together in one round', async () => {
    await using shop = await connect(
      shopper({
        shipping: { action: 'accept', content: { shipping: 'express', copies: 2, binding: 'hardcover' } },
        gift: { action: 'accept', content: { wrap: true, note: 'Hi' } },
      }),
    );
    const { text, isError } = await shop.call('order_book', { title: 'Dune' });
    expect(shop.asked).toEqual([
      { round: 1, kind: 'form', message: 'Is it a gift?' },
      { round: 1, kind: 'form', message: 'How should "Dune" ship?' },
    ]);
    expect(isError).toBe(false);
    expect(text).toBe(
      'Ordered 2 × "Dune" (hardcover), gift-wrapped with a card: "Hi": express shipping, arriving in 2 days, EUR 31.00.',
    );
  });

  it('out of stock: asks to backorder (with the gift), then how to ship, and adds three weeks', async () => {
    await using shop = await connect(
      shopper({ backorder: { action: 'accept', content: { confirm: true, notify: ['sms'], maxPrice: 20 } } }),
    );
    const { text } = await shop.call('order_book', { title: 'Solaris' });
    expect(shop.asked).toEqual([
      { round: 1, kind: 'form', message: '"Solaris" is out of stock. Backorder it?' },
      { round: 1, kind: 'form', message: 'Is it a gift?' },
      { round: 2, kind: 'form', message: 'How should "Solaris" ship?' },
    ]);
    expect(text).toBe(
      'Ordered 1 × "Solaris" (paperback) on backorder: standard shipping, arriving in 26 days, EUR 14.00; we will tell you by sms.',
    );
  });

  it('publishes the backorder form with its defaults, bounds and multi-select', async () => {
    const forms: ElicitRequestParams[] = [];
    await using shop = await connect((params) => {
      forms.push(params);
      return { action: 'decline' };
    });
    await shop.call('order_book', { title: 'Solaris' });
    const backorder = forms.find((f) => f.message.includes('Backorder'));
    expect(backorder).toMatchObject({
      requestedSchema: {
        type: 'object',
        properties: {
          confirm: { type: 'boolean' },
          notify: {
            type: 'array',
            maxItems: 2,
            items: { type: 'string', enum: ['email', 'sms', 'push'] },
            default: ['email'],
          },
          maxPrice: { type: 'number', minimum: 0, maximum: 500, title: 'Price ceiling (EUR)' },
        },
        required: ['confirm'],
      },
    });
  });

  it('backorder refused (confirm: false): not ordered, and no shipping question', async () => {
    await using shop = await connect(
      shopper({ backorder: { action: 'accept', content: { confirm: false } } }),
    );
    const { text, isError } = await shop.call('order_book', { title: 'Solaris' });
    expect(isError).toBe(false);
    expect(text).toBe('Not ordered: "Solaris" is out of stock.');
    expect(shop.asked.map((a) => a.round)).toEqual([1, 1]);
  });

  it.each(['decline', 'cancel'] as const)(
    'backorder form %sd: an isError result the model can read',
    async (action) => {
      await using shop = await connect(shopper({ backorder: { action } }));
      const { text, isError } = await shop.call('order_book', { title: 'Solaris' });
      expect(isError).toBe(true);
      const word = action === 'decline' ? 'declined' : 'cancelled';
      expect(text).toBe(`Resolver for 'backorder' could not resolve: elicitation was ${word}`);
    },
  );

  it('shipping form cancelled: isError naming the resolver', async () => {
    await using shop = await connect(shopper({ shipping: { action: 'cancel' } }));
    const { text, isError } = await shop.call('order_book', { title: 'Dune' });
    expect(isError).toBe(true);
    expect(text).toContain('could not resolve: elicitation was cancelled');
  });

  it.each(['decline', 'cancel'] as const)(
    'gift form %sd: ordered anyway, unwrapped (elicitResult)',
    async (action) => {
      await using shop = await connect(shopper({ gift: { action } }));
      const { text, isError } = await shop.call('order_book', { title: 'Dune' });
      expect(isError).toBe(false);
      expect(text).toBe('Ordered 1 × "Dune" (paperback): standard shipping, arriving in 5 days, EUR 12.50.');
    },
  );

  it('an answer outside the form (copies: 9) is -32602 naming the resolver', async () => {
    await using shop = await connect(
      shopper({
        shipping: { action: 'accept', content: { shipping: 'standard', copies: 9, binding: 'paperback' } },
      }),
    );
    const error = await shop.call('order_book', { title: 'Dune' }).catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ code: -32602 });
    expect((error as Error).message).toContain('shipping');
  });

  it('an unknown title is an isError result, asking only the gift question', async () => {
    await using shop = await connect(shopper());
    const { text, isError } = await shop.call('order_book', { title: 'Ulysses' });
    expect(shop.asked).toEqual([{ round: 1, kind: 'form', message: 'Is it a gift?' }]);
    expect(isError).toBe(true);
    expect(text).toBe('"Ulysses" is not in our catalogue.');
  });
});

describe('write_blurb (sampling)', () => {
  it("asks the client's LLM once and uses its answer", async () => {
    await using shop = await connect();
    const { text } = await shop.call('write_blurb', { title: 'Neuromancer' });
    expect(shop.asked).toEqual([{ round: 1, kind: 'sampling' }]);
    expect(text).toBe(
      `Shelf-talker for "Neuromancer" (${FAKE_MODEL}): "Neuromancer": the book our staff keep pressing into strangers' hands.`,
    );
  });

  it('a client without sampling gets -32021 naming the capability', async () => {
    await using shop = await connect(undefined, { sampling: undefined });
    const error = await shop.call('write_blurb', { title: 'Dune' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32021 });
  });
});

describe('export_wishlist (roots)', () => {
  it("puts the wishlist in the client's first root", async () => {
    await using shop = await connect();
    const { text } = await shop.call('export_wishlist', { titles: ['Dune', 'Solaris'] });
    expect(shop.asked).toEqual([{ round: 1, kind: 'roots' }]);
    expect(text).toBe(
      'Wishlist of 2 title(s) would be written to file:///tmp/shop/wishlist.md (the first of 1 root(s), "shop").',
    );
  });

  it('no roots: an isError result', async () => {
    await using shop = await connect(undefined, { roots: () => ({ roots: [] }) });
    const { isError, text } = await shop.call('export_wishlist', { titles: ['Dune'] });
    expect(isError).toBe(true);
    expect(text).toContain('no roots');
  });
});

/** What the user does on the sign-in page in the browser: posts the form of `url` to `desk`. */
async function signInOnPage(desk: SignInDesk, url: string, account: string, password: string) {
  const ticket = new URL(url).searchParams.get('ticket') ?? '';
  const body = new URLSearchParams({ ticket, account, password }).toString();
  return desk.page(new Request(url, { method: 'POST', body }));
}

describe('order_history (URL elicitation)', () => {
  it('a bare accept is not a sign-in: no orders until the sign-in page saw the account', async () => {
    await using shop = await connect(shopper());
    const { isError, text } = await shop.call('order_history', {});
    expect(shop.asked).toEqual([
      { round: 1, kind: 'url', message: 'Sign in to Bookshop to see your order history' },
    ]);
    expect(isError).toBe(true);
    expect(text).toMatch(
      /^Not signed in: the sign-in at https:\/\/bookshop\.example\/sign-in\?ticket=\S+ was not/,
    );
    expect(text).not.toContain('Past orders');
  });

  it('signing in on the page shows that account’s orders, and the next call asks nothing', async () => {
    const desk = createSignInDesk();
    const signs: number[] = [];
    const user = async (params: ElicitRequestParams): Promise<ElicitResult> => {
      if (params.mode !== 'url') return { action: 'decline' };
      const wrong = await signInOnPage(desk, params.url, 'bob', 'wonderland');
      const right = await signInOnPage(desk, params.url, 'bob', 'builder');
      signs.push(wrong.status, right.status);
      return { action: 'accept' };
    };
    await using shop = await connect(user, {}, desk);
    expect((await shop.call('order_history', {})).text).toBe(
      'Signed in as bob. Past orders: "Solaris" (2025-06-30).',
    );
    expect(signs).toEqual([403, 200]);
    expect((await shop.call('order_history', {})).text).toContain('Signed in as bob');
    expect(shop.asked).toHaveLength(1); // the desk knows the caller: no second URL
  });

  it('the page refuses a link made for another authenticated customer (the spec’s phishing case)', async () => {
    const desk = createSignInDesk();
    const mallorysLink = desk.urlFor({ subject: 'mallory', token: 'm' }) as string;
    const refused = await signInOnPage(desk, mallorysLink, 'alice', 'wonderland');
    expect(refused.status).toBe(403);
    expect(desk.accountOf({ subject: 'mallory', token: 'm' })).toBeUndefined();
    const forged = await signInOnPage(
      desk,
      'https://bookshop.example/sign-in?ticket=made-up',
      'alice',
      'wonderland',
    );
    expect(forged.status).toBe(400);
    const alicesLink = desk.urlFor({ subject: 'alice', token: 'a' }) as string;
    expect((await signInOnPage(desk, alicesLink, 'alice', 'wonderland')).status).toBe(200);
    expect(desk.accountOf({ subject: 'alice', token: 'a2' })).toBe('alice');
    expect(desk.accountOf({ subject: 'mallory', token: 'm' })).toBeUndefined();
  });

  it.each(['decline', 'cancel'] as const)('%s: an isError result', async (action) => {
    await using shop = await connect(() => ({ action }));
    const { isError, text } = await shop.call('order_history', {});
    expect(isError).toBe(true);
    expect(text).toContain("Resolver for 'signedIn' could not resolve");
  });

  it('a client that supports only form elicitation gets -32021', async () => {
    await using shop = await connect(shopper(), { elicitationModes: ['form'] });
    const error = await shop.call('order_history', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32021 });
  });
});
