// The list methods' plumbing: one page through the result cache, every page as one capped iteration.

import { type CachedMethod, throughCache } from './cache.js';
import type { CallRunner } from './call-runner.js';
import { specCall } from './calls.js';
import {
  type CachedCallOptions,
  type ClientSettings,
  checkMaxPages,
  type ListAllOptions,
  type ListParams,
} from './options.js';
import { type Page, Paginated } from './pagination.js';
import type { ResultByMethod } from './results.js';

/** The list methods of the spec. */
export type ListMethod = 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';

/** Pages and iterations of the list methods of one client. */
export class Listing {
  readonly #settings: ClientSettings;
  readonly #runner: CallRunner;

  constructor(settings: ClientSettings, runner: CallRunner) {
    this.#settings = settings;
    this.#runner = runner;
  }

  /** One page of a list method, through the cache. */
  page<M extends ListMethod>(
    method: M,
    params: ListParams,
    options: CachedCallOptions | undefined,
  ): Promise<ResultByMethod[M]> {
    return this.cached(method, params.cursor ?? null, options, async () => ({
      result: await this.#runner.call(specCall(method, params), options),
      cacheable: true,
    }));
  }

  /** Every page of a list method, as one iteration capped at `maxPages` (checked now: `RangeError`). */
  all<T>(
    method: string,
    options: ListAllOptions,
    page: (cursor: string | undefined) => Promise<Page<T>>,
  ): Paginated<T> {
    const maxPages =
      options.maxPages === undefined
        ? this.#settings.listMaxPages
        : checkMaxPages('maxPages', options.maxPages);
    return new Paginated(method, maxPages, page);
  }

  /** `run` through the cache, unless caching is off for the client or for this call (see `throughCache`). */
  cached<T>(
    method: CachedMethod,
    target: string | null,
    options: CachedCallOptions | undefined,
    run: () => Promise<{ result: T; cacheable: boolean }>,
  ): Promise<T> {
    const cache = options?.cache === false ? undefined : this.#settings.cache;
    return throughCache(cache, method, target, run, options?.cache === 'reload');
  }
}
