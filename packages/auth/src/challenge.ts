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

/**
 * The parameters of a `DPoP` challenge (RFC 9449 §7.1): the Bearer ones (`error` may also be
 * `invalid_dpop_proof` or `use_dpop_nonce`) plus `algs`, the proof algorithms the server accepts.
 */
export interface DpopChallenge extends BearerChallenge {
  /** `algs`, split on spaces. */
  readonly algs?: readonly string[];
}

// auth-param = token BWS "=" BWS ( token / quoted-string ), RFC 9110 §11.2.
const PARAM = /([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s,"]*)/y;
const SCHEME = /([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?=\s|,|$)/y;

/**
 * The parameters of the first challenge of `scheme` (lower case) in a `WWW-Authenticate` value, among other
 * challenges if any (scheme names compare case-insensitively, quoted strings are unescaped, the first of a
 * repeated parameter wins). `undefined` when there is none.
 */
function parseChallenge(
  header: string | null | undefined,
  scheme: string,
): Record<string, string> | undefined {
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
    const found = SCHEME.exec(header);
    if (found === null) break; // malformed: keep what was read
    current = {};
    if (params === undefined && found[1]?.toLowerCase() === scheme) params = current;
    at += found[0].length;
  }
  return params;
}

/** The Bearer fields of parsed challenge parameters. */
function bearerFields(params: Record<string, string>): BearerChallenge {
  const scope = words(params.scope);
  return {
    ...(params.resource_metadata !== undefined && { resourceMetadata: params.resource_metadata }),
    ...(scope !== undefined && { scope }),
    ...(params.error !== undefined && { error: params.error }),
    ...(params.error_description !== undefined && { errorDescription: params.error_description }),
  };
}

function words(value: string | undefined): string[] | undefined {
  const list = value?.split(' ').filter((s) => s !== '');
  return list !== undefined && list.length > 0 ? list : undefined;
}

/**
 * Parses the `Bearer` challenge of a `WWW-Authenticate` header value, among other challenges if any (scheme
 * names compare case-insensitively, quoted strings are unescaped). `undefined` when there is none.
 */
export function parseBearerChallenge(header: string | null | undefined): BearerChallenge | undefined {
  const params = parseChallenge(header, 'bearer');
  return params === undefined ? undefined : bearerFields(params);
}

/** Parses the `DPoP` challenge of a `WWW-Authenticate` header value, like {@link parseBearerChallenge}. */
export function parseDpopChallenge(header: string | null | undefined): DpopChallenge | undefined {
  const params = parseChallenge(header, 'dpop');
  if (params === undefined) return undefined;
  const algs = words(params.algs);
  return { ...bearerFields(params), ...(algs !== undefined && { algs }) };
}

/** `<scheme> key="value", …` (quotes and backslashes escaped, absent parameters left out; the bare scheme without any). */
function format(scheme: string, challenge: BearerChallenge, algs?: readonly string[]): string {
  const params = [
    ['error', challenge.error],
    ['error_description', challenge.errorDescription],
    ['algs', algs?.join(' ')],
    ['scope', challenge.scope?.join(' ')],
    ['resource_metadata', challenge.resourceMetadata],
  ]
    .filter((pair): pair is [string, string] => pair[1] !== undefined)
    .map(([key, value]) => `${key}="${value.replace(/["\\]/g, '\\$&')}"`);
  return params.length === 0 ? scheme : `${scheme} ${params.join(', ')}`;
}

/** Writes a `Bearer` challenge: `Bearer error="…", scope="a b", resource_metadata="…"` (quotes escaped). */
export function formatBearerChallenge(challenge: BearerChallenge): string {
  return format('Bearer', challenge);
}

/** Writes a `DPoP` challenge: `DPoP error="…", algs="ES256 PS256", scope="…", resource_metadata="…"`. */
export function formatDpopChallenge(challenge: DpopChallenge): string {
  return format('DPoP', challenge, challenge.algs);
}
