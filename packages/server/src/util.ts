/**
 * A shallow copy of `value`'s own enumerable string-keyed members, as a spread makes it (an own `"__proto__"`
 * member stays a member; symbol members, which JSON never sends, are left out). For copies that then get new
 * members: on Node 20's V8, adding members to a spread copy is several times slower than to this one.
 */
export function copyMembers(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = value[key];
    if (key === '__proto__') {
      Object.defineProperty(out, key, {
        value: member,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[key] = member;
  }
  return out;
}
