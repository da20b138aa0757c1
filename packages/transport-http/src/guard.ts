// DNS-rebinding and cross-origin protection: the Host and Origin allow-lists of the MCP endpoint.

/** The allow-lists one endpoint enforces (see {@link HttpHandlerOptions}). */
export interface HostPolicy {
  /**
   * `Host` values the endpoint answers to, e.g. `['127.0.0.1:3000', 'localhost:3000']`, or a bare host name
   * (`'mcp.example.com'`) to accept any port. Case-insensitive. Absent: any Host.
   */
  readonly allowedHosts?: readonly string[] | undefined;
  /**
   * Origins (`'https://app.example.com'`) whose browser pages may call the endpoint. A request without an
   * `Origin` header (not sent by a browser) always passes. Absent: only same-origin requests (the Origin's
   * host equals the `Host` header).
   */
  readonly allowedOrigins?: readonly string[] | undefined;
}

/** Reads request headers by name (case-insensitive): a web `Headers`, or a view over `node:http` headers. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** Why a request (its headers, and its URL for a request without `Host`) was refused, or `undefined`. */
export function hostPolicyViolation(
  headers: HeaderReader,
  url: string,
  policy: HostPolicy,
): string | undefined {
  const host = hostOf(headers, url);
  const { allowedHosts, allowedOrigins } = policy;
  if (allowedHosts !== undefined && (host === undefined || !hostAllowed(host, allowedHosts))) {
    return `Forbidden: Host ${host === undefined ? '(missing)' : `"${host}"`} is not allowed`;
  }
  const origin = headers.get('origin');
  if (origin === null) return undefined;
  const normalized = normalizeOrigin(origin);
  const allowed =
    normalized !== undefined &&
    (allowedOrigins === undefined
      ? host !== undefined && new URL(normalized).host === host.toLowerCase()
      : allowedOrigins.some((entry) => normalizeOrigin(entry) === normalized));
  return allowed ? undefined : `Forbidden: Origin "${origin}" is not allowed`;
}

/** The allow-lists for an endpoint bound to a loopback address on `port`. */
export function loopbackPolicy(port: number): Required<HostPolicy> {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  return {
    allowedHosts: names.map((name) => `${name}:${port}`),
    allowedOrigins: names.flatMap((name) => [`http://${name}:${port}`, `https://${name}:${port}`]),
  };
}

/**
 * True for a host name or address that only reaches this machine (an IPv4-mapped `::ffff:127.x.x.x` too: what a
 * dual-stack socket reports for an IPv4 loopback peer).
 */
export function isLoopback(host: string): boolean {
  const bare = host
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/^::ffff:(?=\d)/, '');
  return bare === 'localhost' || bare === '::1' || /^127(?:\.\d{1,3}){3}$/.test(bare);
}

function hostOf(headers: HeaderReader, url: string): string | undefined {
  const header = headers.get('host');
  if (header !== null) return header.toLowerCase();
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return undefined;
  }
}

function hostAllowed(host: string, allowed: readonly string[]): boolean {
  // `host` is lower-cased: an entry spelled exactly like it allows it (the usual case, and no copies made).
  if (allowed.includes(host)) return true;
  const hostname = host.replace(/:\d+$/, '');
  return allowed.some((entry) => {
    const wanted = entry.toLowerCase();
    return /:\d+$/.test(wanted) ? wanted === host : wanted === hostname;
  });
}

function normalizeOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}
