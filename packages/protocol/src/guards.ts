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
    const proto: unknown = Object.getPrototypeOf(value);
    const ctor =
      typeof proto === 'object' && proto !== null && 'constructor' in proto ? proto.constructor : undefined;
    const name =
      (typeof ctor === 'function' || (typeof ctor === 'object' && ctor !== null)) && 'name' in ctor
        ? ctor.name
        : undefined;
    return typeof name === 'string' && name !== 'Object' ? name : 'object';
  }
  return typeof value;
}
