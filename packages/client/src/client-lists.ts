// The list methods every Client has: one page of a list (`listTools`…), served from the result cache while fresh,
// or every page as one iteration (`tools()`…). A page of tools also teaches the client each tool's hints and
// output schema.
import type {
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
} from '@boomerang/protocol';
import type { ClientParts } from './assembly.js';
import type { CachedCallOptions, ListAllOptions, ListParams } from './options.js';
import type { Paginated } from './pagination.js';

/** The list methods of {@link Client}: one page, or every page. */
export class ClientLists {
  readonly #parts: ClientParts;

  /** @internal Made by `Client`'s constructor. */
  constructor(parts: ClientParts) {
    this.#parts = parts;
  }

  /**
   * `tools/list`: one page of tools, `{ tools, nextCursor? }`. Like the other list methods and `readResource`,
   * served from the cache while a result for the same params is fresh (`ttlMs`), unless `{ cache: false }`.
   */
  async listTools(params: ListParams = {}, options?: CachedCallOptions): Promise<ListToolsResult> {
    const result = await this.#parts.listing.page('tools/list', params, options);
    this.#parts.outputs.record(result.tools, params.cursor === undefined);
    this.#parts.hints.learn(result.tools);
    return result;
  }

  /**
   * Every tool of every page of `tools/list`, one page requested at a time as the iteration goes on (see
   * {@link Paginated}); at most `maxPages` pages (default: option `listMaxPages`, 100).
   */
  tools(params: Omit<ListParams, 'cursor'> = {}, options: ListAllOptions = {}): Paginated<Tool> {
    return this.#parts.listing.all('tools/list', options, async (cursor) => {
      const page = await this.listTools({ ...params, cursor }, options);
      return { items: page.tools, nextCursor: page.nextCursor };
    });
  }

  /** `prompts/list`: one page of prompts, `{ prompts, nextCursor? }`. */
  listPrompts(params: ListParams = {}, options?: CachedCallOptions): Promise<ListPromptsResult> {
    return this.#parts.listing.page('prompts/list', params, options);
  }

  /** Every prompt of every page of `prompts/list` (see {@link ClientLists.tools}). */
  prompts(params: Omit<ListParams, 'cursor'> = {}, options: ListAllOptions = {}): Paginated<Prompt> {
    return this.#parts.listing.all('prompts/list', options, async (cursor) => {
      const page = await this.listPrompts({ ...params, cursor }, options);
      return { items: page.prompts, nextCursor: page.nextCursor };
    });
  }

  /** `resources/list`: one page of resources, `{ resources, nextCursor? }`. */
  listResources(params: ListParams = {}, options?: CachedCallOptions): Promise<ListResourcesResult> {
    return this.#parts.listing.page('resources/list', params, options);
  }

  /** Every resource of every page of `resources/list` (see {@link ClientLists.tools}). */
  resources(params: Omit<ListParams, 'cursor'> = {}, options: ListAllOptions = {}): Paginated<Resource> {
    return this.#parts.listing.all('resources/list', options, async (cursor) => {
      const page = await this.listResources({ ...params, cursor }, options);
      return { items: page.resources, nextCursor: page.nextCursor };
    });
  }

  /** `resources/templates/list`: one page of templates, `{ resourceTemplates, nextCursor? }`. */
  listResourceTemplates(
    params: ListParams = {},
    options?: CachedCallOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.#parts.listing.page('resources/templates/list', params, options);
  }

  /** Every template of every page of `resources/templates/list` (see {@link ClientLists.tools}). */
  resourceTemplates(
    params: Omit<ListParams, 'cursor'> = {},
    options: ListAllOptions = {},
  ): Paginated<ResourceTemplate> {
    return this.#parts.listing.all('resources/templates/list', options, async (cursor) => {
      const page = await this.listResourceTemplates({ ...params, cursor }, options);
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    });
  }
}
