import { describe, expect, it, vi } from 'vitest';
import { CancellableHandleContext, RequestCancellation } from './transport-kit.js';

describe('RequestCancellation', () => {
  it('makes no AbortController until signal is read, and the signal follows a later abort', () => {
    const Original = globalThis.AbortController;
    let made = 0;
    globalThis.AbortController = class extends Original {
      constructor() {
        super();
        made++;
      }
    };
    try {
      const cancellation = new RequestCancellation();
      cancellation.onAbort(() => {});
      expect(cancellation.aborted).toBe(false);
      expect(made).toBe(0);
      const { signal } = cancellation;
      expect(made).toBe(1);
      expect(cancellation.signal).toBe(signal); // one controller, however often it is read
      const reason = new Error('gone');
      cancellation.abort(reason);
      expect(signal.aborted).toBe(true);
      expect(signal.reason).toBe(reason);
    } finally {
      globalThis.AbortController = Original;
    }
  });

  it('gives a signal read after the abort already aborted, with the reason (an AbortError by default)', () => {
    const given = new RequestCancellation();
    given.abort('why');
    expect(given.signal.aborted).toBe(true);
    expect(given.signal.reason).toBe('why');
    const plain = new RequestCancellation();
    plain.abort();
    expect(plain.signal.reason).toBeInstanceOf(DOMException);
    expect((plain.signal.reason as DOMException).name).toBe('AbortError');
  });

  it('runs every listener once, in subscription order; unsubscribed ones never; later aborts do nothing', () => {
    const cancellation = new RequestCancellation();
    const calls: string[] = [];
    cancellation.onAbort(() => calls.push('a'));
    const off = cancellation.onAbort(() => calls.push('b'));
    cancellation.onAbort(() => calls.push('c'));
    off();
    off(); // twice is fine
    cancellation.abort(new Error('first'));
    cancellation.abort(new Error('second'));
    expect(calls).toEqual(['a', 'c']);
    expect(cancellation.signal.reason).toEqual(new Error('first'));
  });

  it('never calls a listener added after the abort (check aborted first), and its unsubscribe is harmless', () => {
    const cancellation = new RequestCancellation();
    cancellation.abort();
    const listener = vi.fn();
    const off = cancellation.onAbort(listener);
    off();
    cancellation.abort();
    expect(listener).not.toHaveBeenCalled();
    expect(cancellation.aborted).toBe(true);
  });
});

describe('CancellableHandleContext', () => {
  it('reads signal from its cancellation, lazily, and carries notify and auth only when given', () => {
    const cancellation = new RequestCancellation();
    const bare = new CancellableHandleContext(cancellation);
    expect(Object.keys(bare)).toEqual(['cancellation']);
    expect(bare.cancellation).toBe(cancellation);
    expect(bare.signal).toBe(cancellation.signal);

    const notify = vi.fn();
    const auth = { clientId: 'app', scopes: [] };
    const full = new CancellableHandleContext(cancellation, notify, auth);
    expect(full.notify).toBe(notify);
    expect(full.auth).toBe(auth);
    cancellation.abort(new Error('gone'));
    expect(full.signal.aborted).toBe(true);
  });
});
