import { ErrorCode, McpError } from '@boomerang/protocol';
import { pickMeta } from './schema.js';
import type { RegisteredHandle } from './types.js';

/**
 * Registered tools, prompts, resources or templates of one kind, in registration order (a name registered
 * again after `remove()` goes to the end). Each registration gets a sequence number; pagination cursors are the
 * sequence number of the first item of the next page, so removing items between two pages never skips or
 * repeats the ones that stay.
 */
export class Registry<E> {
  readonly #items = new Map<string, { readonly seq: number; entry: E }>();
  #seq = 0;
  /** Something of this kind was registered at least once (its capability stays advertised from then on). */
  ever = false;

  constructor(
    /** `tool`, `prompt`, `resource`, `resource template`: for error messages. */
    readonly kind: string,
    readonly onChange: () => void,
  ) {}

  /** Registers `entry` under `key`; throws when the key is taken. Returns a function that removes exactly it. */
  add(key: string, entry: E): { remove(): void; replace(next: E): void } {
    if (this.#items.has(key)) throw new Error(`${this.kind} '${key}' is already registered`);
    const slot = { seq: this.#seq++, entry };
    this.#items.set(key, slot);
    this.ever = true;
    this.onChange();
    return {
      remove: () => {
        if (this.#items.get(key) !== slot) return;
        this.#items.delete(key);
        this.onChange();
      },
      replace: (next) => {
        if (this.#items.get(key) !== slot) throw new Error(`${this.kind} '${key}' was removed`);
        slot.entry = next;
        this.onChange();
      },
    };
  }

  get(key: string): E | undefined {
    return this.#items.get(key)?.entry;
  }

  values(): E[] {
    return [...this.#items.values()].map((slot) => slot.entry);
  }

  /**
   * One page: the items from `cursor` on (all of them without one), at most `pageSize`. `cursor` is this
   * registry's own (the low-level server wraps it into the opaque wire cursor); anything that is not one is
   * `-32602 Invalid cursor`.
   */
  page(cursor: string | undefined, pageSize: number | undefined): { items: E[]; nextCursor?: string } {
    let from = 0;
    if (cursor !== undefined) {
      if (!/^(?:0|[1-9]\d{0,15})$/.test(cursor))
        throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor');
      from = Number(cursor);
    }
    const slots = [...this.#items.values()].filter((slot) => slot.seq >= from);
    if (pageSize === undefined || slots.length <= pageSize) return { items: slots.map((s) => s.entry) };
    const next = slots[pageSize];
    return {
      items: slots.slice(0, pageSize).map((s) => s.entry),
      ...(next === undefined ? {} : { nextCursor: String(next.seq) }),
    };
  }
}

/**
 * Registers `entry` and returns its handle: `update(patch)` merges the patch's metadata members (`metaKeys`;
 * anything else throws `TypeError`) into the entry, `remove()` unregisters exactly this registration.
 */
export function register<E extends { readonly meta: object }, M>(
  registry: Registry<E>,
  key: string,
  entry: E,
  owner: string,
  metaKeys: readonly string[],
): RegisteredHandle<M> {
  const slot = registry.add(key, entry);
  const allowed = new Set(metaKeys);
  let current = entry;
  return {
    name: key,
    update(patch) {
      const meta = pickMeta(owner, patch, metaKeys, allowed);
      const next = { ...current, meta: { ...current.meta, ...meta } };
      slot.replace(next);
      current = next;
    },
    remove() {
      slot.remove();
    },
  };
}
