// The worker's default plan against the bookshop (apps/bookshop): one call for each kind of question it asks.
import type { Job } from './worker.js';

/**
 * Seven calls: two orders that ask forms over two rounds (one only alice may answer, one only bob), a blurb that
 * asks for an LLM completion (sampling), a wishlist that asks for roots, an order history that asks to sign in
 * on a web page (URL elicitation), and a stock check that the bookshop answers at once.
 */
export const BOOKSHOP_PLAN: readonly Job[] = [
  {
    tool: 'order_book',
    arguments: { title: 'Solaris' },
    answerers: ['alice'],
    note: 'Order Solaris for the book club (out of stock: backorder?)',
  },
  { tool: 'order_book', arguments: { title: 'Dune' }, note: 'Order Dune as a present' },
  { tool: 'write_blurb', arguments: { title: 'Neuromancer' }, note: 'A shelf-talker for the window' },
  {
    tool: 'export_wishlist',
    arguments: { titles: ['Dune', 'Solaris'] },
    note: 'Save the wishlist in a shared folder',
  },
  { tool: 'order_history', note: 'Look up past orders' },
  {
    tool: 'order_book',
    arguments: { title: 'The Left Hand of Darkness' },
    answerers: ['bob'],
    note: 'Bob’s reading-group order',
  },
  { tool: 'check_stock', arguments: { title: 'Dune' }, note: 'Stock check (answered at once)' },
];
