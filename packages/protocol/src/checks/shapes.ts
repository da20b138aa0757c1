// The building blocks of the hand-written checks (fast-parse.ts for a server's requests, checks/ for what a
// client receives): zod's rules for objects, records, arrays and primitives, stricter where that is simpler. A
// check built from them accepts a value only when zod accepts it and zod's output equals the value itself, up to
// member order: objects are plain and carry no own `__proto__` member (zod drops that member from its output).

/** A hand-written check: true only when the schema it stands for accepts the value. */
export type Check = (value: unknown) => boolean;

const own = (value: object, key: string): boolean => Object.hasOwn(value, key);

/**
 * An object zod reads as `z.object` (not null, not an array) whose members it copies as they are: a plain
 * prototype and no own `__proto__` member (zod drops that member from its output).
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !own(value, '__proto__');
}

/**
 * A `z.record(z.string(), …)` whose every value passes `member`, over the keys zod reads: enumerable string keys
 * (zod skips non-enumerable ones, and fails symbol keys, so any symbol declines).
 */
export function isRecord(value: unknown, member: Check): boolean {
  if (!isObject(value) || !isZodPlain(value) || Object.getOwnPropertySymbols(value).length !== 0)
    return false;
  for (const key in value) if (!member(value[key])) return false;
  return true;
}

/** zod's `isPlainObject`, the record check: an own function-valued `constructor` may fail it. */
function isZodPlain(value: Record<string, unknown>): boolean {
  if (!own(value, 'constructor')) return true;
  const ctor = value.constructor;
  if (typeof ctor !== 'function') return true;
  const proto: unknown = ctor.prototype;
  return typeof proto === 'object' && proto !== null && !Array.isArray(proto) && own(proto, 'isPrototypeOf');
}

/** `z.string()`. */
export const isString = (value: unknown): value is string => typeof value === 'string';
/** `z.boolean()`. */
export const isBoolean = (value: unknown): boolean => typeof value === 'boolean';
/** `schema.optional()`: absent (or `undefined`), or what `check` accepts. */
export const optional = (value: unknown, check: Check): boolean => value === undefined || check(value);
/** `z.string().optional()`. */
export const optionalString = (value: unknown): boolean => value === undefined || typeof value === 'string';
/** `z.number()`: zod refuses `NaN` and the infinities. */
export const isFiniteNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);
/** `z.int()`: zod's integers are the safe ones. */
export const isInt = (value: unknown): value is number => Number.isSafeInteger(value);
/** `z.looseObject({})`: any object for zod, which copies it; a plain one, so that the copy equals it. */
export const isOpenObject = (value: unknown): boolean => isObject(value);
/** `z.record(z.string(), z.looseObject({}))`: the `experimental` and `extensions` maps of capabilities. */
export const isSettingsMap = (value: unknown): boolean => isRecord(value, isOpenObject);

/** `z.array(…)`: every element (holes read as `undefined`) passes `member`. */
export function isArrayOf(value: unknown, member: Check): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (!member(value[i])) return false;
  return true;
}

/** `z.array(z.string())`. */
export const isStringArray = (value: unknown): boolean => isArrayOf(value, isString);
/** `z.record(z.string(), z.string())`. */
export const isStringRecord = (value: unknown): boolean => isRecord(value, isString);
