// Small runtime helpers shared by the resolver modules.

export { isPlainObject } from '@boomerang/protocol';

/** A short type name for error messages (`null`, `array`, `Map`, `number`…). */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') {
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor
      ?.name;
    return typeof name === 'string' && name !== 'Object' ? name : 'object';
  }
  return typeof value;
}

/** The package-wide `TypeError` template: `"name" expected …, got …`. */
export function argumentError(name: string, expected: string, got: unknown): TypeError {
  return new TypeError(`"${name}" expected ${expected}, got ${describeType(got)}`);
}
