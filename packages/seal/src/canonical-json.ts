// Canonical JSON: one spelling per JSON value, so that a value can be hashed or bound as a seal context whatever
// order its members were built in.

/**
 * JSON with object keys sorted (by UTF-16 code units) at every depth and no whitespace (array-index keys such as
 * `"0"` or `"42"` come first, in ascending numeric order, as JavaScript enumerates them); otherwise exactly
 * `JSON.stringify` (so `undefined` members vanish, lone surrogates are escaped, `-0` is `0`). BigInt throws
 * `TypeError`; a cyclic value throws `RangeError` (stack overflow: the sorted copies hide the cycle).
 *
 * Runs on every seal and open: JSON data (plain objects, arrays, strings, finite numbers, booleans, null) takes a
 * direct writer; anything else (`toJSON`, class instances, boxed primitives, BigInt, very deep or cyclic values)
 * takes the `JSON.stringify` replacer path, so the output never depends on which path ran.
 */
export function canonicalJson(value: unknown): string {
  return writeJson(value, 0) ?? canonicalJsonSlow(value);
}

/** Deeper than this, the writer hands over to `JSON.stringify` (which also reports cycles). */
const MAX_FAST_DEPTH = 64;

/** The canonical JSON of plain JSON data; `undefined` when `value` needs {@link canonicalJsonSlow}. */
function writeJson(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return 'null';
  if (depth >= MAX_FAST_DEPTH || ('toJSON' in value && typeof value.toJSON === 'function')) return undefined;
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (proto !== Array.prototype) return undefined;
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      const member: unknown = value[i];
      const text =
        member === undefined || typeof member === 'function' || typeof member === 'symbol'
          ? 'null'
          : writeJson(member, depth + 1);
      if (text === undefined) return undefined;
      out += i === 0 ? text : `,${text}`;
    }
    return `${out}]`;
  }
  if (proto !== Object.prototype && proto !== null) return undefined;
  let out = '';
  for (const key of orderedKeys(value)) {
    const member: unknown = (value as Record<string, unknown>)[key];
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    const text = writeJson(member, depth + 1);
    if (text === undefined) return undefined;
    out += `${out === '' ? '' : ','}${JSON.stringify(key)}:${text}`;
  }
  return `{${out}}`;
}

/**
 * Own enumerable keys in the order a key-sorted copy enumerates them: JavaScript lists array-index keys
 * (`"0"`, `"7"`, …) first in ascending numeric order whatever their insertion order, then the other keys in
 * insertion order (here sorted by UTF-16 code units). `Object.keys` already lists the index keys first.
 */
function orderedKeys(value: object): string[] {
  const keys = Object.keys(value);
  let indices = 0;
  while (indices < keys.length && isArrayIndex(keys[indices] as string)) indices++;
  if (indices === 0) return keys.sort();
  return keys.slice(0, indices).concat(keys.slice(indices).sort());
}

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4_294_967_295;
}

/** `canonicalJson` for any value, through `JSON.stringify`'s replacer. */
function canonicalJsonSlow(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) return inner;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(inner).sort()) {
      const member = (inner as Record<string, unknown>)[key];
      // Assigning "__proto__" would set the prototype: defineProperty keeps an own "__proto__" member a member.
      if (key === '__proto__') {
        const own = { value: member, enumerable: true, writable: true, configurable: true };
        Object.defineProperty(sorted, key, own);
      } else sorted[key] = member;
    }
    return sorted;
  });
}
