// "Resolvers": one tool whose dependencies ask every kind of question. Run by resolvers.examples.test.ts.
// #region questions
import {
  elicit,
  elicitResult,
  elicitUrl,
  listRoots,
  McpServer,
  resolver,
  sample,
} from '@boomerang/mcp-server';
import { z } from 'zod';

// Question schemas are built once, at module scope: each schema object is converted to JSON Schema once.
const Shipping = z.object({ speed: z.enum(['standard', 'express']) });
const Surcharge = z.object({ accept: z.boolean() });
const GiftNote = z.object({ note: z.string().max(140) });

/** A form question: the value is the accepted content, typed by the schema. */
const shipping = resolver({}, () => elicit('How fast should it ship?', Shipping));

/** Depends on `shipping`: asked in the next round, and only when express was chosen. */
const surcharge = resolver({ uses: { shipping } }, ({ shipping }) =>
  shipping.speed === 'express' ? elicit('Express costs €9 more. Accept?', Surcharge) : { accept: true },
);

/** The full outcome: a decline is a value to branch on, not a failure. */
const giftNote = resolver({}, () => elicitResult('Add a gift note?', GiftNote));

/** A URL question, for what must not pass through the client (payment, secrets, a third-party sign-in). */
const payment = resolver({ args: ['title'] }, ({ title }: { title: string }) =>
  elicitUrl(`Pay for "${title}"`, `https://shop.example.com/pay?title=${encodeURIComponent(title)}`),
);

/** The client's LLM writes the blurb; the value is its CreateMessageResult. */
const blurb = resolver({ args: ['title'] }, ({ title }: { title: string }) =>
  sample({
    messages: [{ role: 'user', content: { type: 'text', text: `One line on ${title}` } }],
    maxTokens: 60,
  }),
);

/** The client's roots: where to save the receipt. */
const folders = resolver({}, () => listRoots());
// #endregion questions

// #region tool
export const shop = new McpServer({ name: 'shop', version: '1.0.0' });

shop.tool(
  'checkout',
  {
    description: 'Buy a book',
    input: z.object({ title: z.string() }),
    // Invisible to the model: none of these names is in the tool's inputSchema.
    resolve: { shipping, surcharge, giftNote, payment, blurb, folders },
  },
  ({ title }, { shipping, surcharge, giftNote, blurb, folders }) => {
    if (!surcharge.accept) return { content: [{ type: 'text', text: 'Not ordered' }] };
    const note = giftNote.action === 'accept' ? ` with the note "${giftNote.content.note}"` : '';
    const pitch = !Array.isArray(blurb.content) && blurb.content.type === 'text' ? blurb.content.text : '';
    const receipt = folders.roots[0]?.uri ?? 'nowhere';
    return {
      content: [
        {
          type: 'text',
          text: `Ordered "${title}" (${shipping.speed})${note}. ${pitch} Receipt in ${receipt}`,
        },
      ],
    };
  },
);

// #endregion tool

// #region host
import { Client } from '@boomerang/client';
import { connectInMemory } from '@boomerang/transport-memory';

/** A host that answers each kind of question; `rounds` records which questions came in which round. */
export async function buyDune(speed: 'standard' | 'express', rounds: string[][] = []): Promise<string> {
  const record = (round: number, what: string) => {
    rounds[round - 1] = [...(rounds[round - 1] ?? []), what];
  };
  const client = new Client(
    { name: 'host', version: '1.0.0' },
    {
      elicitation: async (params, ctx) => {
        record(ctx.round, params.mode === 'url' ? 'url' : params.message);
        if (params.mode === 'url') return { action: 'accept' }; // the user opened the page and paid
        if (params.message === 'Add a gift note?') return { action: 'decline' };
        if (params.message.startsWith('Express')) return { action: 'accept', content: { accept: true } };
        return { action: 'accept', content: { speed } };
      },
      sampling: async (_params, ctx) => {
        record(ctx.round, 'sampling');
        return { role: 'assistant', model: 'm', content: { type: 'text', text: 'A desert planet epic.' } };
      },
      roots: async (ctx) => {
        record(ctx.round, 'roots');
        return { roots: [{ uri: 'file:///home/ada/receipts', name: 'receipts' }] };
      },
    },
  );
  await using _link = await connectInMemory(client, shop);
  const result = await client.callTool('checkout', { title: 'Dune' });
  return result.content[0]?.type === 'text' ? result.content[0].text : '';
}
// #endregion host
