// The README's server example: a shop whose `order_book` tool asks which book through an App (the picker view),
// with the ordinary form for hosts without Apps. Runs in apps.examples.test.ts and in the Chromium tests.
// #region server
import { McpServer, resolver } from '@boomerang/mcp-server';
import { z } from 'zod';
import { appsExtension, appToolMeta, elicitApp, registerAppView } from './index.js';
import { PICKER_HTML } from './picker-view.examples.js';

const BOOKS = [
  { isbn: '9780441013593', title: 'Dune' },
  { isbn: '9780553293357', title: 'Foundation' },
];

/** The question's schema (built once): what a form asks, and what the view's answer must match. */
const Choice = z.object({ isbn: z.enum(['9780441013593', '9780553293357']) });

/** Asks through the picker view where the host renders Apps, through the form of `Choice` elsewhere. */
const pickBook = resolver({}, () =>
  elicitApp('ui://shop/picker', Choice, { message: 'Which book shall I order?' }),
);

export function createShop(): McpServer {
  const mcp = new McpServer({ name: 'shop', version: '1.0.0' }, { extensions: [appsExtension()] });
  registerAppView(mcp, 'ui://shop/picker', { name: 'Book picker', html: PICKER_HTML, prefersBorder: true });
  mcp.tool(
    'order_book',
    { description: 'Order the book the user picks', resolve: { choice: pickBook } },
    async (_args, { choice }) => {
      const book = BOOKS.find((b) => b.isbn === choice.isbn);
      return { content: [{ type: 'text', text: `Ordered "${book?.title}"` }] };
    },
  );
  // Only views call it: hosts keep it from the model (visibility ['app']).
  mcp.tool(
    'search_books',
    {
      description: 'Books in stock, for the picker',
      input: z.object({ q: z.string() }),
      _meta: appToolMeta('ui://shop/picker', { visibility: ['app'] }),
    },
    async ({ q }) => {
      const books = BOOKS.filter((b) => b.title.toLowerCase().includes(q.toLowerCase()));
      return {
        content: [{ type: 'text', text: books.map((b) => b.title).join(', ') }],
        structuredContent: { books },
      };
    },
  );
  return mcp;
}
// #endregion server
