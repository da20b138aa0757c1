// The one guard vocabulary: how every package says an argument was of the wrong type.

/**
 * The one `TypeError` template of every Boomerang package for wrong arguments: `"name" expected <what>, got <type>`.
 * Values are described by type only, so a secret passed by mistake never reaches a log.
 */
export function argumentError(name: string, expected: string, got: unknown): TypeError {
  return new TypeError(`"${name}" expected ${expected}, got ${describeType(got)}`);
}

/** A short type name for error messages (`null`, `array`, `Uint8Array`, `number`…). */
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
