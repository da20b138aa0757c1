// What the suites share: a step that fails with its own name instead of timing the whole test out, and reading a
// number of messages off an iterator.
import type { JSONRPCMessage } from '@boomerang/protocol';

/**
 * Settles like `promise`, or rejects after `ms` (default 5 s) with an error naming `label`: a liveness check that
 * fails with the step's own name, not a benchmark.
 */
export async function within<T>(label: string, promise: PromiseLike<T>, ms = 5000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${label}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The next `n` messages of `from`; rejects when the iteration ends first. */
export async function takeN(from: AsyncIterator<JSONRPCMessage>, n: number): Promise<JSONRPCMessage[]> {
  const out: JSONRPCMessage[] = [];
  while (out.length < n) {
    const next = await from.next();
    if (next.done) throw new Error(`the iteration ended after ${out.length} of ${n} messages`);
    out.push(next.value);
  }
  return out;
}

/** `[0, 1, …, n - 1]`. */
export const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** A text of about `bytes` UTF-8 bytes mixing 1-, 2-, 3- and 4-byte characters (chunk boundaries split them). */
export function multiByteText(bytes: number): string {
  const unit = 'abc é 日本 🪃 ';
  return unit.repeat(Math.ceil(bytes / new TextEncoder().encode(unit).length));
}
