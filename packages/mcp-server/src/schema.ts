import { ErrorCode, McpError } from '@boomerang/protocol';
import { z } from 'zod';
import type { AnyObjectSchema } from './types.js';

/** A JSON Schema object, as published in `inputSchema` / `outputSchema`. */
export type JsonSchema = { type: 'object'; [key: string]: unknown };

/**
 * Publishes a zod object as JSON Schema 2020-12 (`io` picks the input or output types: what a client sends, or
 * what a tool returns). Throws `TypeError` naming `owner` when the schema is not a zod object or cannot be
 * represented in JSON Schema (dates, functions, …).
 */
export function toJsonSchema(schema: AnyObjectSchema, io: 'input' | 'output', owner: string): JsonSchema {
  if (!(schema instanceof z.ZodObject)) {
    throw new TypeError(`${owner}: "${io === 'input' ? 'input' : 'output'}" expected a zod object schema`);
  }
  try {
    return z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as JsonSchema;
  } catch (error) {
    throw new TypeError(`${owner}: the ${io} schema cannot be published as JSON Schema: ${messageOf(error)}`);
  }
}

/** The property names of a zod object (its arguments). */
export function keysOf(schema: AnyObjectSchema | undefined): string[] {
  return schema === undefined ? [] : Object.keys(schema.shape);
}

/** The message of anything thrown. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `-32602` with `message`. */
export function invalidParams(message: string, data?: unknown): McpError {
  return new McpError(ErrorCode.InvalidParams, message, data);
}

/** Checks a registration name: a non-empty string. */
export function checkName(kind: string, name: unknown): asserts name is string {
  if (typeof name !== 'string' || name === '') {
    throw new TypeError(`${kind} name expected a non-empty string, got ${JSON.stringify(name)}`);
  }
}

/** Checks a handler: a function. */
export function checkHandler(owner: string, handler: unknown): void {
  if (typeof handler !== 'function')
    throw new TypeError(`${owner}: handler expected a function, got ${typeof handler}`);
}

/** Picks the metadata members of a config or patch (unknown members throw `TypeError`). */
export function pickMeta<K extends string>(
  owner: string,
  value: unknown,
  metaKeys: readonly K[],
  allowed: ReadonlySet<string>,
): Partial<Record<K, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${owner}: config expected an object`);
  }
  const out: Partial<Record<K, unknown>> = {};
  for (const [key, member] of Object.entries(value)) {
    if (!allowed.has(key)) throw new TypeError(`${owner}: unknown config member "${key}"`);
    if (member !== undefined && (metaKeys as readonly string[]).includes(key)) out[key as K] = member;
  }
  return out;
}
