// Validation with any Standard Schema (zod 4, valibot, arktype… implement `~standard`), and the one way issues
// are described on the wire.
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';

export type { StandardJSONSchemaV1, StandardSchemaV1 };

/** One problem found by a schema: where (a path of keys) and what. zod's issues have this shape too. */
export interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** What {@link validate} returns: the schema's output, or the issues it found. */
export type Validation<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly SchemaIssue[] };

/** True for a Standard Schema v1 object (anything with a `~standard.validate` function). */
export function isStandardSchemaV1(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = '~standard' in value ? value['~standard'] : undefined;
  return (
    typeof props === 'object' && props !== null && 'validate' in props && typeof props.validate === 'function'
  );
}

/**
 * Validates `value` with a Standard Schema: the schema's output, or its issues with plain key paths (a
 * `{ key }` path segment becomes its key). Synchronous when the schema validates synchronously (zod does for
 * schemas without async refinements), so a caller pays no extra turn. Never throws for invalid input; a schema
 * that throws is a bug of the schema and its error propagates.
 */
export function validate<S extends StandardSchemaV1>(
  schema: S,
  value: unknown,
): Validation<StandardSchemaV1.InferOutput<S>> | Promise<Validation<StandardSchemaV1.InferOutput<S>>> {
  const outcome = schema['~standard'].validate(value);
  return outcome instanceof Promise ? outcome.then(toValidation) : toValidation(outcome);
}

function toValidation<T>(outcome: StandardSchemaV1.Result<T>): Validation<T> {
  if (outcome.issues === undefined) return { ok: true, value: outcome.value };
  return {
    ok: false,
    issues: outcome.issues.map((issue) => ({
      message: issue.message,
      path: (issue.path ?? []).map((segment) =>
        typeof segment === 'object' && segment !== null ? segment.key : segment,
      ),
    })),
  };
}

/** How many issues {@link describeIssues} names before it says "and N more". */
const NAMED_ISSUES = 3;

/**
 * A short, client-safe description of schema issues: `params.name: Invalid input: expected string`. Paths are
 * written from `root` as `a.b[0]["io.modelcontextprotocol/logLevel"]`; at most three issues are named. This is
 * the text of every `-32602` a Boomerang server sends for a value that failed its schema.
 */
export function describeIssues(issues: readonly SchemaIssue[], root = 'params'): string {
  const parts = issues
    .slice(0, NAMED_ISSUES)
    .map((issue) => `${formatPath(root, issue.path)}: ${issue.message}`);
  if (issues.length > NAMED_ISSUES) parts.push(`and ${issues.length - NAMED_ISSUES} more`);
  return parts.join('; ');
}

function formatPath(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) out += `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}
