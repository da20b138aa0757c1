import { argumentError, type JSONRPCMessage } from '@boomerang/protocol';

/**
 * `message` as the peer would parse it off a wire: equal to `JSON.parse(JSON.stringify(message))`, built
 * without the text. Throws a `TypeError` (the cause is `JSON.stringify`'s error) for what JSON cannot write (a
 * `BigInt`, a cycle), and for a message JSON writes as nothing (`undefined`, a function).
 *
 * JSON data (plain objects, plain arrays, strings, numbers, booleans, `null`) is copied directly, with JSON's
 * rules: object members that are `undefined`, functions or symbols vanish (`null` inside arrays), non-finite
 * numbers become `null`, `-0` becomes `0`, an own `"__proto__"` member stays a member. Every other value (one
 * with a `toJSON` method such as a `Date`, a class instance, a `Map`, a boxed primitive, a `BigInt`, anything
 * nested deeper than {@link MAX_DIRECT_DEPTH}, which is where a cycle ends up) is copied through
 * `JSON.stringify` and `JSON.parse` under its own key, so `toJSON(key)` sees the key it would see on a wire.
 * Either way each member is read once, in the order `JSON.stringify` reads it.
 */
export function wireCopy(message: JSONRPCMessage): JSONRPCMessage {
  let copy: unknown;
  try {
    copy = copySlot(message, '', 0);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new TypeError(`"message" cannot be sent as JSON: ${reason}`, { cause });
  }
  if (copy === OMITTED) {
    throw argumentError('message', 'a JSON-RPC message', message);
  }
  return copy as JSONRPCMessage;
}

/** Deeper than this, values are copied through JSON text, which also reports cycles. */
export const MAX_DIRECT_DEPTH = 64;

/** What JSON writes for a member that vanishes (`undefined`, a function, a symbol). */
const OMITTED: unique symbol = Symbol('omitted');

/** The copy of the value JSON would write under `key`, or {@link OMITTED}. */
function copySlot(value: unknown, key: string | number, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // JSON writes -0 as 0 and non-finite numbers as null; every other number round-trips exactly.
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    case 'object':
      if (value === null) return null;
      return depth < MAX_DIRECT_DEPTH ? copyObject(value, key, depth) : throughText(value, key);
    case 'undefined':
    case 'function':
    case 'symbol':
      return OMITTED;
    default:
      // bigint: JSON throws, unless BigInt.prototype.toJSON was defined.
      return throughText(value, key);
  }
}

function copyObject(value: object, key: string | number, depth: number): unknown {
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return throughText(value, key);
  const proto: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (proto !== Array.prototype) return throughText(value, key);
    const length = value.length;
    const out = new Array<unknown>(length);
    for (let i = 0; i < length; i++) {
      const member = copySlot(value[i], i, depth + 1);
      out[i] = member === OMITTED ? null : member;
    }
    return out;
  }
  if (proto !== Object.prototype && proto !== null) return throughText(value, key);
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(value)) {
    const member = copySlot((value as Record<string, unknown>)[name], name, depth + 1);
    if (member === OMITTED) continue;
    if (name === '__proto__') {
      // Assigning "__proto__" would set the prototype; JSON.parse defines an own member.
      Object.defineProperty(out, name, {
        value: member,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[name] = member;
  }
  return out;
}

/** JSON's own round trip of one member: `toJSON(key)` gets the key, and a member JSON drops is OMITTED. */
function throughText(value: unknown, key: string | number): unknown {
  const name = String(key); // an array index reaches toJSON as a string, as JSON.stringify passes it
  const holder = JSON.parse(JSON.stringify({ [name]: value }) as string) as Record<string, unknown>;
  return Object.hasOwn(holder, name) ? holder[name] : OMITTED;
}
