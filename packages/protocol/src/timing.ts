// Waiting that an abort cuts short: the client's back-off between rounds and the HTTP transport's reconnect delay.

/** Waits `ms` milliseconds, or rejects with `signal.reason` once `signal` aborts (at once if it already has). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
