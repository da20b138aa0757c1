import { argumentError } from '@boomerang/protocol';
import type { ListenNotification } from './subscription.js';

/** A value or a promise of it: a cache store may be synchronous (memory) or not (Redis). */
type MaybePromise<T> = T | Promise<T>;

/** One cached result: the validated result as JSON, and when it stops being fresh (epoch ms). */
export interface CacheEntry {
  readonly result: unknown;
  readonly expiresAt: number;
}

/**
 * Where the client keeps cached results. Keys are strings that start with the entry's group (see
 * {@link cacheKey}), so `deletePrefix` can drop a method's pages or a resource's reads at once. A store may be
 * shared (several clients, a Redis hash): private entries carry the client's `authContext` in their key, so
 * clients with different authorization contexts never read each other's. A store that fails is treated as a
 * miss (reads) or ignored (writes): the cache never fails a call.
 */
export interface CacheStore {
  /** The entry under `key`, or `undefined`. Expiry is the client's business; the store may keep stale ones. */
  get(key: string): MaybePromise<CacheEntry | undefined>;
  /** Stores `entry` under `key` (replacing any). `entry.expiresAt` says when it may be dropped. */
  set(key: string, entry: CacheEntry): MaybePromise<void>;
  /** Deletes every entry whose key starts with `prefix`: an invalidation. */
  deletePrefix(prefix: string): MaybePromise<void>;
}

/** Options of {@link createMemoryCacheStore}. */
export interface MemoryCacheStoreOptions {
  /** The most entries kept; the least recently stored go first. Default 1000. */
  readonly maxEntries?: number | undefined;
}

/**
 * The default {@link CacheStore}: a `Map` bounded to `maxEntries` (oldest out first). Results are copied with
 * `structuredClone` in and out, so a caller mutating a result cannot change what the next caller reads.
 */
export function createMemoryCacheStore(options: MemoryCacheStoreOptions = {}): CacheStore {
  const { maxEntries = 1000 } = options;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(`"maxEntries" expected a positive integer, got ${String(maxEntries)}`);
  }
  const entries = new Map<string, CacheEntry>();
  return {
    get(key) {
      const entry = entries.get(key);
      return entry === undefined ? undefined : structuredClone(entry);
    },
    set(key, entry) {
      entries.delete(key);
      entries.set(key, structuredClone(entry));
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(oldest);
      }
    },
    deletePrefix(prefix) {
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key);
    },
  };
}

/** The `cache` option of `Client`: where and how results of cacheable methods are cached. */
export interface ClientCacheOptions {
  /** Default: a private {@link createMemoryCacheStore} per client. */
  readonly store?: CacheStore | undefined;
  /**
   * Names the authorization context of this client's `cacheScope: "private"` entries (say, a hash of the access
   * token, or the user id): clients sharing a store and an `authContext` share private entries. Default: a
   * random id per client, so private entries are never shared. `"public"` entries are shared by everyone using
   * the store.
   */
  readonly authContext?: string | undefined;
  /** The clock (epoch ms), for tests. Default `Date.now`. */
  readonly clock?: (() => number) | undefined;
}

/** The methods whose results the client caches. */
export type CachedMethod =
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read';

/**
 * The store key of a result: `JSON.stringify([method, target, partition])`, where `target` is the list cursor
 * (`null` for the first page) or the resource URI, and `partition` is `"public"` or `"private:<authContext>"`.
 * The method (and, for reads, the URI) come first so that {@link groupPrefix} can drop them together.
 */
export function cacheKey(method: CachedMethod, target: string | null, partition: string): string {
  return JSON.stringify([method, target, partition]);
}

/** The key prefix shared by every entry of `method` (or of `method` and `uri`, for `resources/read`). */
export function groupPrefix(method: CachedMethod, uri?: string): string {
  const key = JSON.stringify(uri === undefined ? [method] : [method, uri]);
  return `${key.slice(0, -1)},`;
}

/** The key prefixes a notification seen on a listen stream makes stale. */
export function invalidatedBy(notification: ListenNotification): string[] {
  switch (notification.method) {
    case 'notifications/tools/list_changed':
      return [groupPrefix('tools/list')];
    case 'notifications/prompts/list_changed':
      return [groupPrefix('prompts/list')];
    case 'notifications/resources/list_changed':
      return [groupPrefix('resources/list'), groupPrefix('resources/templates/list')];
    case 'notifications/resources/updated': {
      const uri: unknown = notification.params?.uri;
      return typeof uri === 'string' ? [groupPrefix('resources/read', uri)] : [];
    }
    default:
      return [];
  }
}

/**
 * The client's use of a {@link CacheStore}: look up a fresh result for one request, store a complete result
 * under its `ttlMs` / `cacheScope`, and invalidate. Results are looked up in the public partition, then in this
 * client's private one. A result is stored only when `ttlMs` is a positive number; `ttlMs` absent, `0` or
 * negative means immediately stale (the spec's default). An invalidation also wins over a request that was in
 * flight when it happened: that request's result is not stored.
 */
export class ResultCache {
  readonly #store: CacheStore;
  readonly #private: string;
  readonly #clock: () => number;
  /** Invalidations so far, per group prefix (a request remembers the counts it started with). */
  readonly #epochs = new Map<string, number>();

  constructor(options: ClientCacheOptions = {}) {
    const { store, authContext, clock = Date.now } = options;
    if (store !== undefined && (typeof store.get !== 'function' || typeof store.set !== 'function')) {
      throw argumentError('cache.store', '{ get, set, deletePrefix }', store);
    }
    if (authContext !== undefined && typeof authContext !== 'string') {
      throw argumentError('cache.authContext', 'a string', authContext);
    }
    this.#store = store ?? createMemoryCacheStore();
    this.#private = `private:${authContext ?? randomId()}`;
    this.#clock = clock;
  }

  /** A fresh cached result for the request, or `undefined`. */
  async get(method: CachedMethod, target: string | null): Promise<unknown> {
    const now = this.#clock();
    for (const partition of ['public', this.#private]) {
      const entry = await safely(() => this.#store.get(cacheKey(method, target, partition)));
      if (entry !== undefined && now < entry.expiresAt) return entry.result;
    }
    return undefined;
  }

  /** A token to pass to {@link ResultCache.set}: the invalidation counts when the request started. */
  begin(method: CachedMethod, target: string | null): number {
    return this.#epoch(method, target);
  }

  /** Stores a complete result per its `ttlMs` / `cacheScope`, unless invalidated since `begin`. */
  async set(method: CachedMethod, target: string | null, result: unknown, started: number): Promise<void> {
    const { ttlMs, cacheScope } = result as { ttlMs?: unknown; cacheScope?: unknown };
    if (typeof ttlMs !== 'number' || !(ttlMs > 0) || this.#epoch(method, target) !== started) return;
    const partition = cacheScope === 'public' ? 'public' : this.#private;
    const entry = { result, expiresAt: this.#clock() + ttlMs };
    await safely(() => this.#store.set(cacheKey(method, target, partition), entry));
  }

  /** Drops every entry the notification makes stale. */
  async invalidate(notification: ListenNotification): Promise<void> {
    await Promise.all(invalidatedBy(notification).map((prefix) => this.#drop(prefix)));
  }

  /** Drops every cached page of `method` (say, after the server refused a cursor). */
  async invalidateMethod(method: CachedMethod): Promise<void> {
    await this.#drop(groupPrefix(method));
  }

  async #drop(prefix: string): Promise<void> {
    this.#epochs.set(prefix, (this.#epochs.get(prefix) ?? 0) + 1);
    await safely(() => this.#store.deletePrefix(prefix));
  }

  #epoch(method: CachedMethod, target: string | null): number {
    // Reads are invalidated per URI; lists per method. Summing both counts keeps one number per request.
    const byMethod = this.#epochs.get(groupPrefix(method)) ?? 0;
    const byUri =
      method === 'resources/read' && target !== null
        ? (this.#epochs.get(groupPrefix(method, target)) ?? 0)
        : 0;
    return byMethod + byUri;
  }
}

/**
 * Serves a call from `cache` when a fresh result exists; else runs it and stores its result unless `run` says
 * it is not cacheable (a result reached through `input_required` rounds); `reload` skips the lookup. An error
 * on a list call with a cursor
 * drops that method's pages (the cursor may be stale). Without a cache, just runs it.
 */
export async function throughCache<T>(
  cache: ResultCache | undefined,
  method: CachedMethod,
  target: string | null,
  run: () => Promise<{ result: T; cacheable: boolean }>,
  reload = false,
): Promise<T> {
  if (cache === undefined) return (await run()).result;
  const hit = reload ? undefined : await cache.get(method, target);
  if (hit !== undefined) return hit as T;
  const started = cache.begin(method, target);
  let outcome: { result: T; cacheable: boolean };
  try {
    outcome = await run();
  } catch (error) {
    if (target !== null && method !== 'resources/read') await cache.invalidateMethod(method);
    throw error;
  }
  if (outcome.cacheable) await cache.set(method, target, outcome.result, started);
  return outcome.result;
}

async function safely<T>(run: () => MaybePromise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch {
    return undefined;
  }
}

function randomId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
