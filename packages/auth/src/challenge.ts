/** The parameters of a `Bearer` challenge in `WWW-Authenticate` (RFC 6750 §3, RFC 9728 §5.1). */
export interface BearerChallenge {
  /** `resource_metadata`: where the Protected Resource Metadata lives. */
  readonly resourceMetadata?: string;
  /** `scope`, split on spaces: the scopes this request needs. */
  readonly scope?: readonly string[];
  /** `error`, e.g. `invalid_token` or `insufficient_scope`. */
  readonly error?: string;
  /** `error_description`, human-readable. */
  readonly errorDescription?: string;
}

// auth-param = token BWS "=" BWS ( token / quoted-string ), RFC 9110 §11.2.
const PARAM = /([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s,"]*)/y;
const SCHEME = /([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?=\s|,|$)/y;

/**
 * Parses the `Bearer` challenge of a `WWW-Authenticate` header value, among other challenges if any (scheme
 * names compare case-insensitively, quoted strings are unescaped). `undefined` when there is none.
 */
export function parseBearerChallenge(header: string | null | undefined): BearerChallenge | undefined {
  if (typeof header !== 'string') return undefined;
  let params: Record<string, string> | undefined;
  let current: Record<string, string> | undefined;
  let at = 0;
  while (at < header.length) {
    const ch = header[at];
    if (ch === ' ' || ch === '\t' || ch === ',') {
      at++;
      continue;
    }
    PARAM.lastIndex = at;
    const param = PARAM.exec(header);
    if (param !== null && current !== undefined) {
      const [whole, key = '', raw = ''] = param;
      const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
      current[key.toLowerCase()] ??= value;
      at += whole.length;
      continue;
    }
    SCHEME.lastIndex = at;
    const scheme = SCHEME.exec(header);
    if (scheme === null) break; // malformed: keep what was read
    current = {};
    if (params === undefined && scheme[1]?.toLowerCase() === 'bearer') params = current;
    at += scheme[0].length;
  }
  if (params === undefined) return undefined;
  const scope = params.scope?.split(' ').filter((s) => s !== '');
  return {
    ...(params.resource_metadata !== undefined && { resourceMetadata: params.resource_metadata }),
    ...(scope !== undefined && scope.length > 0 && { scope }),
    ...(params.error !== undefined && { error: params.error }),
    ...(params.error_description !== undefined && { errorDescription: params.error_description }),
  };
}

/** Writes a `Bearer` challenge: `Bearer error="…", scope="a b", resource_metadata="…"` (quotes escaped). */
export function formatBearerChallenge(challenge: BearerChallenge): string {
  const parts: string[] = [];
  const add = (key: string, value: string | undefined) => {
    if (value !== undefined) parts.push(`${key}="${value.replace(/["\\]/g, '\\$&')}"`);
  };
  add('error', challenge.error);
  add('error_description', challenge.errorDescription);
  add('scope', challenge.scope?.join(' '));
  add('resource_metadata', challenge.resourceMetadata);
  return parts.length === 0 ? 'Bearer' : `Bearer ${parts.join(', ')}`;
}
