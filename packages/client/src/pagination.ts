// Every page of a list method, as one async iteration: `for await (const tool of client.tools())`.
import { invalidResult, pagesExceeded } from './errors.js';

/** One page of a list: its items and the cursor of the next page, if any. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string | undefined;
}

/**
 * The items of every page of a list method (`tools/list`, `prompts/list`, `resources/list`,
 * `resources/templates/list`), fetched one page at a time as the iteration goes on: each page is requested when
 * the previous one is used up, so a `break` stops asking. Iterating again starts again from the first page.
 *
 * Bounded: after `maxPages` pages, a page that still has a `nextCursor` fails the iteration with a
 * `pages-exceeded` `ClientError` (the items before it were yielded); a server that hands back a cursor it already
 * gave (its pages would loop) fails it with `invalid-result`. A page's own failure (an `McpError`, a
 * `ClientError`) rejects the iteration as it is.
 */
export class Paginated<T> implements AsyncIterable<T> {
  readonly #method: string;
  readonly #maxPages: number;
  readonly #page: (cursor: string | undefined) => Promise<Page<T>>;

  /** `page(cursor)` fetches one page (`undefined`: the first). */
  constructor(method: string, maxPages: number, page: (cursor: string | undefined) => Promise<Page<T>>) {
    this.#method = method;
    this.#maxPages = maxPages;
    this.#page = page;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let pages = 1; ; pages++) {
      const page = await this.#page(cursor);
      yield* page.items;
      const next = page.nextCursor;
      if (next === undefined) return;
      if (seen.has(next)) {
        throw invalidResult(
          this.#method,
          `the server handed back the cursor ${JSON.stringify(next)} a second time (its pages would loop)`,
          page,
        );
      }
      if (pages >= this.#maxPages) throw pagesExceeded(this.#method, this.#maxPages);
      seen.add(next);
      cursor = next;
    }
  }

  /** Every item of every page, in order (the whole iteration; rejects as it does). */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
