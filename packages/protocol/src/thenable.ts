/**
 * True for a value `await` would wait on: a promise, or any object or function with a callable `then`. The SDK
 * awaits only such values, so a synchronous handler, resolver or schema costs no extra microtask turn.
 */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    'then' in value &&
    typeof value.then === 'function'
  );
}
