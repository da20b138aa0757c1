// What a tool's `structuredContent` must match: the `outputSchema` the last `tools/list` showed for it, compiled
// the first time a result of that tool is checked (spec: clients SHOULD validate structured results). The JSON
// Schema validator is loaded then, so a client that never meets an output schema never loads it.
import {
  type CallToolResult,
  describeIssues,
  type StandardSchemaV1,
  type Tool,
  validate,
} from '@boomerang/protocol';
import { invalidStructuredContent, type OriginatingRequest } from './errors.js';

/** One tool's output schema, and its validator once compiled (or why it cannot be). */
interface Entry {
  readonly schema: Record<string, unknown>;
  compiled?: Promise<StandardSchemaV1 | TypeError>;
}

/** The output schemas of the tools of the last `tools/list`, by tool name. */
export class OutputSchemas {
  readonly #byName = new Map<string, Entry>();

  /**
   * Records a page of `tools/list`: the first page (no cursor) starts the list afresh, later pages add to it. A
   * tool listed without an `outputSchema` has none.
   */
  record(tools: readonly Tool[], firstPage: boolean): void {
    if (firstPage) this.#byName.clear();
    for (const tool of tools) {
      if (tool.outputSchema === undefined) this.#byName.delete(tool.name);
      else this.#byName.set(tool.name, { schema: tool.outputSchema });
    }
  }

  /**
   * Checks a result of tool `request.name` against its output schema, if it has one: an `isError` result is not
   * checked; otherwise `structuredContent` must be present and match. Rejects with an `invalid-result`
   * `ClientError` naming the tool and the issues (or why the schema cannot be used: an unsupported dialect, a
   * reference outside the schema, …).
   */
  async check(
    request: OriginatingRequest & { readonly name: string },
    result: CallToolResult,
  ): Promise<void> {
    const entry = this.#byName.get(request.name);
    if (entry === undefined || result.isError === true) return;
    const tool = JSON.stringify(request.name);
    if (result.structuredContent === undefined) {
      throw invalidStructuredContent(
        request,
        `tool ${tool} has an outputSchema but returned no structuredContent`,
        result,
      );
    }
    entry.compiled ??= compile(entry.schema);
    const validator = await entry.compiled;
    if (validator instanceof TypeError) {
      throw invalidStructuredContent(
        request,
        `the outputSchema of tool ${tool} cannot be used (${validator.message})`,
        result,
        validator,
      );
    }
    const outcome = await validate(validator, result.structuredContent);
    if (!outcome.ok) {
      const issues = describeIssues(outcome.issues, 'structuredContent');
      throw invalidStructuredContent(
        request,
        `structuredContent does not match the outputSchema of tool ${tool} (${issues})`,
        result,
        outcome.issues,
      );
    }
  }
}

/** The schema compiled, or the `TypeError` saying why it cannot be. */
async function compile(schema: Record<string, unknown>): Promise<StandardSchemaV1 | TypeError> {
  const { fromJsonSchema } = await import('@boomerang/protocol/json-schema');
  try {
    return fromJsonSchema(schema);
  } catch (error) {
    return error instanceof TypeError ? error : new TypeError(String(error));
  }
}
