// How @boomerang/protocol gets zod where it cannot load a module synchronously on demand (browsers, workers,
// bundles): a static import, so zod loads with the package. `#zod` resolves here by default; Node gets
// zod-load.node.ts (package.json "imports"). Only the functions the schemas are written with are imported, by
// name: a bundler then keeps just those (and what they use) of zod, instead of the whole namespace with its
// 40-odd locales (a browser bundle of the client and the HTTP transport: 130 KB gzip with `z`, see
// scripts/check-bundle-size.mjs for what it is now).

import type { z } from 'zod';
import {
  array,
  boolean,
  discriminatedUnion,
  enum as enumOf,
  int,
  iso,
  lazy,
  literal,
  looseObject,
  null as nullOf,
  number,
  record,
  string,
  union,
  unknown,
} from 'zod';

/**
 * The zod functions the schemas are written with: the one list of them (a schema that needs another one adds it
 * here and to the imports above, whose names let a bundler leave the rest of zod out).
 */
export type ZodSubset = Pick<
  typeof z,
  | 'array'
  | 'boolean'
  | 'discriminatedUnion'
  | 'enum'
  | 'int'
  | 'iso'
  | 'lazy'
  | 'literal'
  | 'looseObject'
  | 'null'
  | 'number'
  | 'record'
  | 'string'
  | 'union'
  | 'unknown'
>;

/** The zod functions the schemas are built with. */
export function loadZod(): ZodSubset {
  return {
    array,
    boolean,
    discriminatedUnion,
    enum: enumOf,
    int,
    iso,
    lazy,
    literal,
    looseObject,
    null: nullOf,
    number,
    record,
    string,
    union,
    unknown,
  };
}
