import type { Direction } from '@boomerang/demo-kit';
import {
  type CallToolResult,
  type ElicitRequest,
  type ElicitRequestFormParams,
  type ElicitRequestParams,
  type InputRequests,
  isInputRequired,
  type JSONRPCMessage,
} from '@boomerang/protocol';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
} from '@boomerang/protocol/transport';

/** Shortens an opaque token for display: its head, its tail and its length. */
export function abbreviate(token: string): string {
  return token.length <= 28 ? token : `${token.slice(0, 12)}…${token.slice(-8)} (${token.length} chars)`;
}

/**
 * Renders the messages of a client connection as rounds a reader can follow: each `tools/call` request (with
 * the answers and the echoed state of a retry), each `input_required` result (the questions and the new state),
 * and the final result. Returns the lines for one message; keep one renderer per connection (it numbers rounds).
 */
export function createWireRenderer(): (direction: Direction, message: JSONRPCMessage) => string[] {
  let round = 0;
  return (direction, message) => {
    const lines: string[] = [];
    if (direction === 'out' && isJSONRPCRequest(message)) {
      const params = (message.params ?? {}) as Record<string, unknown>;
      if (message.method !== 'tools/call') return [`→ ${message.method}`];
      round += 1;
      lines.push(
        `→ round ${round}: tools/call ${String(params.name)} ${JSON.stringify(params.arguments ?? {})}  (id ${message.id})`,
      );
      const responses = (params.inputResponses ?? {}) as Record<
        string,
        { action?: string; content?: unknown }
      >;
      for (const [key, response] of Object.entries(responses)) {
        lines.push(
          `    inputResponses.${key} = ${response.action} ${JSON.stringify(response.content ?? {})}`,
        );
      }
      if (typeof params.requestState === 'string') {
        lines.push(`    requestState = ${abbreviate(params.requestState)}, echoed byte for byte`);
      }
      return lines;
    }
    if (direction === 'in' && isJSONRPCErrorResponse(message)) {
      return [`← error ${message.error.code}: ${message.error.message}`];
    }
    if (direction === 'in' && isJSONRPCResultResponse(message)) {
      const result = message.result as Record<string, unknown>;
      if (isInputRequired(result)) {
        lines.push('← input_required: the server needs something only the client has');
        lines.push(...describeInputRequests(result.inputRequests ?? {}).map((line) => `    ${line}`));
        if (result.requestState !== undefined) {
          lines.push(`    requestState = ${abbreviate(result.requestState)}, sealed: opaque to the client`);
        }
        return lines;
      }
      if (Array.isArray(result.content)) return [`← complete: ${firstText(result as CallToolResult)}`];
      if (Array.isArray(result.supportedVersions)) {
        return [`← server/discover: supports ${(result.supportedVersions as string[]).join(', ')}`];
      }
      return ['← result'];
    }
    return [];
  };
}

/** One line per input request: its key, kind and message, and for a form with one choice field, the choices. */
export function describeInputRequests(requests: InputRequests): string[] {
  return Object.entries(requests).map(([key, request]) => {
    if (request.method !== 'elicitation/create') return `inputRequests.${key} = ${request.method}`;
    const params = (request as ElicitRequest).params;
    const choices = choicesOf(formSchemaOf(params));
    const options = choices.length > 0 ? `  [${choices.map((c) => c.value).join(' | ')}]` : '';
    return `inputRequests.${key} = elicitation/create (${params.mode ?? 'form'}): "${params.message}"${options}`;
  });
}

/** The form schema of form-mode elicitation params, or `undefined` for URL mode. */
export function formSchemaOf(
  params: ElicitRequestParams,
): ElicitRequestFormParams['requestedSchema'] | undefined {
  return params.mode === 'url' ? undefined : (params as ElicitRequestFormParams).requestedSchema;
}

/** A choice of a single-select form field. */
export interface Choice {
  value: string;
  title: string;
}

/** The choices of the first single-select field of a form schema (`enum` or `oneOf` of `{ const, title }`). */
export function choicesOf(schema: unknown): Choice[] {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  for (const field of Object.values(properties) as Array<{ enum?: unknown; oneOf?: unknown }>) {
    if (Array.isArray(field.oneOf)) {
      return (field.oneOf as Array<{ const: string; title?: string }>).map((o) => ({
        value: o.const,
        title: o.title ?? o.const,
      }));
    }
    if (Array.isArray(field.enum)) return (field.enum as string[]).map((value) => ({ value, title: value }));
  }
  return [];
}

/** The first text block of a tool result (or a note that there is none). */
export function firstText(result: CallToolResult): string {
  const block = result.content.find((c) => c.type === 'text');
  return block?.type === 'text' ? block.text : '(no text content)';
}
