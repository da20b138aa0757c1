// The 2026-07-28 request-metadata headers a client transport writes (`MCP-Protocol-Version`, `Mcp-Method`,
// `Mcp-Name`, `Mcp-Param-*`), and the `x-mcp-header` declarations they mirror, learnt from `tools/list` results.
import { type JSONRPCResponse, LATEST_PROTOCOL_VERSION } from '@boomerang/protocol';
import {
  encodeHeaderValue,
  HeaderName,
  headerTextOf,
  isObject,
  nameParamOf,
  type ParamHeader,
  paramHeadersOf,
  valueAt,
} from './headers.js';

/** The `x-mcp-header` declarations of the tools a client transport has seen listed. */
export class ToolHeaders {
  readonly #declared = new Map<string, readonly ParamHeader[]>();
  readonly #warn: (message: string) => void;

  constructor(warn: (message: string) => void) {
    this.#warn = warn;
  }

  /** A fingerprint of `name`'s declarations, to tell whether a fresh `tools/list` changed them. */
  fingerprint(name: string): string | undefined {
    return JSON.stringify(this.#declared.get(name));
  }

  /**
   * Writes the headers of one 2026-07-28 message: its version (`LATEST_PROTOCOL_VERSION` when `_meta` names
   * none), method, `Mcp-Name` (tool or prompt name, resource URI) and, for `tools/call`, the `Mcp-Param-*` of
   * every declared argument that has a value. Values outside plain visible ASCII travel as `=?base64?…?=`.
   */
  write(
    headers: Headers,
    method: string,
    params: Record<string, unknown> | undefined,
    version: unknown,
  ): void {
    headers.set(HeaderName.protocolVersion, typeof version === 'string' ? version : LATEST_PROTOCOL_VERSION);
    headers.set(HeaderName.method, method);
    const nameParam = nameParamOf(method);
    const name = nameParam === undefined ? undefined : params?.[nameParam];
    if (typeof name !== 'string') return;
    headers.set(HeaderName.name, encodeHeaderValue(name));
    if (method !== 'tools/call') return;
    for (const { header, path } of this.#declared.get(name) ?? []) {
      const text = headerTextOf(valueAt(params?.arguments, path));
      if (text !== undefined) headers.set(`${HeaderName.paramPrefix}${header}`, encodeHeaderValue(text));
    }
  }

  /**
   * A `tools/list` response as delivered: every tool's declarations remembered, and a tool whose `x-mcp-header`
   * declarations break the spec's rules dropped, with a warning (the spec's MUST for HTTP clients).
   */
  filter(response: JSONRPCResponse): JSONRPCResponse {
    if (!('result' in response) || !isObject(response.result) || !Array.isArray(response.result.tools)) {
      return response;
    }
    const tools = response.result.tools.filter((tool: unknown) => {
      if (!isObject(tool) || typeof tool.name !== 'string') return true; // the client's schema rejects it
      const declared = paramHeadersOf(tool.inputSchema);
      if (declared.ok) {
        this.#declared.set(tool.name, declared.headers);
        return true;
      }
      this.#declared.delete(tool.name);
      this.#warn(`dropped tool "${tool.name}" from tools/list: ${declared.reason}`);
      return false;
    });
    return { ...response, result: { ...response.result, tools } } as JSONRPCResponse;
  }
}
