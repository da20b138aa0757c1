// MCP extensions are declared by id under `capabilities.extensions` on both sides: a client per request (in
// `_meta["io.modelcontextprotocol/clientCapabilities"]`), a server in `server/discover`. An empty object means
// "supported, no settings".

/** Capabilities of either side, as far as extensions go. */
export interface ExtensionCapabilities {
  readonly extensions?: { readonly [id: string]: object } | undefined;
}

/**
 * The settings object a peer declared for extension `id` (`{}` when it declared support without settings), or
 * `undefined` when it did not declare it. Only an own, plain-object member counts.
 */
export function extensionSettings(
  capabilities: ExtensionCapabilities | undefined,
  id: string,
): Readonly<Record<string, unknown>> | undefined {
  const extensions = capabilities?.extensions;
  if (typeof extensions !== 'object' || extensions === null || !Object.hasOwn(extensions, id))
    return undefined;
  const settings: unknown = extensions[id];
  return isSettings(settings) ? settings : undefined;
}

/** A settings object: any object but `null` and arrays, read member by member. */
const isSettings = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** True when the peer declared extension `id` in these capabilities. */
export function hasExtension(capabilities: ExtensionCapabilities | undefined, id: string): boolean {
  return extensionSettings(capabilities, id) !== undefined;
}
