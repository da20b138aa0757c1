// The zod functions the schemas are written with, and `lazySchema`, which builds each schema the first time it
// is used. Nothing runs zod while the package is imported: a server builds the few schemas it needs when it
// needs them (most requests never do: fast-parse.ts), and on Node zod itself loads only then (#zod).

import { loadZod, type ZodSubset } from '#zod';

let loaded: ZodSubset | undefined;
const zodNow = (): ZodSubset => {
  loaded ??= loadZod();
  return loaded;
};

/** The zod functions the schemas are written with ({@link ZodSubset}), loaded on first use. */
export const zod: ZodSubset = new Proxy({} as ZodSubset, {
  get: (_target, key) => Reflect.get(zodNow(), key),
});

/**
 * A schema built by `build` the first time anything touches it, standing for it from then on: every operation
 * goes to the built schema (`safeParse`, `instanceof z.ZodType`, `.extend`, `.shape`, use inside other schemas),
 * so it is the schema for all purposes but one: `===` against the built object (which nothing hands out).
 * Properties read as configurable, as a proxy must report them.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(schema(), key),
    set: (_target, key, value) => Reflect.set(schema(), key, value),
    has: (_target, key) => Reflect.has(schema(), key),
    deleteProperty: (_target, key) => Reflect.deleteProperty(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      if (descriptor !== undefined) descriptor.configurable = true;
      return descriptor;
    },
    defineProperty: (_target, key, descriptor) =>
      Reflect.defineProperty(schema(), key, { ...descriptor, configurable: true }),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
    setPrototypeOf: (_target, proto) => Reflect.setPrototypeOf(schema(), proto),
  });
}
