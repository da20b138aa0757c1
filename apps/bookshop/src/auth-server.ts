// A tiny OAuth 2.1 authorization server on 127.0.0.1 for the `--auth` demo and the headless client: metadata
// (RFC 8414), Dynamic Client Registration (RFC 7591), /authorize with PKCE S256 and RFC 9207 `iss`, /token issuing
// opaque access tokens bound to one resource (RFC 8707) for the authorization-code grant and, for service clients
// registered by the operator, the client credentials grant (RFC 6749 §4.4, client_secret_basic or _post); and
// `verify` for the bookshop's bearerAuth. In memory, one process, no refresh.
// A demo, not a product: the "consent" is one click (or none), and the user is whoever `subject` says.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthInfo } from '@boomerang/protocol';

/** Options of {@link startAuthServer}. */
export interface AuthServerOptions {
  /** The user every sign-in signs in as (default `alice`). */
  readonly subject?: string | undefined;
  /** Redirect back at once (scripted runs) instead of showing a consent page with an Approve link. Default true. */
  readonly autoApprove?: boolean | undefined;
  /** Scopes the server offers (default `['books:order']`). */
  readonly scopes?: readonly string[] | undefined;
  /** Access token lifetime in seconds (default 3600). */
  readonly expiresIn?: number | undefined;
  /** Port to bind on 127.0.0.1 (default 0: a free one). */
  readonly port?: number | undefined;
}

/** A running authorization server. */
export interface AuthServer extends AsyncDisposable {
  /** Its issuer identifier, `http://127.0.0.1:<port>` (loopback http is allowed for issuers). */
  readonly issuer: string;
  /** The token verifier for `bearerAuth`: a token this server issued for `resource`, still valid, or `undefined`. */
  verify(token: string, resource: string): AuthInfo | undefined;
  /** Issues a token directly, as if `subject` had signed in with `clientId` (to show another user in the demo). */
  issueToken(grant: {
    subject: string;
    clientId: string;
    resource: string;
    scopes: readonly string[];
  }): string;
  /**
   * Registers a confidential service client, as an operator would (never over the network): it may use the
   * client credentials grant for `scopes` (default all offered), and acts as itself (the subject is its client id).
   * The secret is returned once; the server keeps only its SHA-256.
   */
  registerServiceClient(service: { name: string; scopes?: readonly string[] }): {
    clientId: string;
    clientSecret: string;
  };
  close(): Promise<void>;
}

interface ServiceClient {
  readonly secretHash: Buffer;
  readonly scopes: readonly string[];
}

interface Client {
  readonly redirectUris: readonly string[];
  readonly name: string;
}

interface Grant {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly challenge: string;
  readonly resource: string;
  readonly scopes: readonly string[];
  readonly subject: string;
  readonly expiresAt: number;
}

interface Issued {
  readonly clientId: string;
  readonly subject: string;
  readonly resource: string;
  readonly scopes: readonly string[];
  readonly expiresAt: number;
}

const random = () => randomBytes(24).toString('base64url');
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** Starts the authorization server on 127.0.0.1 and resolves once it listens. */
export async function startAuthServer(options: AuthServerOptions = {}): Promise<AuthServer> {
  const subject = options.subject ?? 'alice';
  const autoApprove = options.autoApprove ?? true;
  const offered = options.scopes ?? ['books:order'];
  const expiresIn = options.expiresIn ?? 3600;
  const clients = new Map<string, Client>();
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, Issued>();
  const services = new Map<string, ServiceClient>();
  let issuer = '';

  const issueToken = (grant: Omit<Issued, 'expiresAt'>): string => {
    const token = random();
    tokens.set(token, { ...grant, expiresAt: Math.floor(Date.now() / 1000) + expiresIn });
    return token;
  };

  const metadata = () => ({
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'client_credentials'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    scopes_supported: offered,
    authorization_response_iss_parameter_supported: true,
  });

  const register = (body: Record<string, unknown>) => {
    const uris = body.redirect_uris;
    if (!Array.isArray(uris) || uris.length === 0 || !uris.every((u) => typeof u === 'string' && isUrl(u))) {
      return json({ error: 'invalid_redirect_uri', error_description: 'redirect_uris: absolute URLs' }, 400);
    }
    if (body.token_endpoint_auth_method !== undefined && body.token_endpoint_auth_method !== 'none') {
      return json({ error: 'invalid_client_metadata', error_description: 'public clients only' }, 400);
    }
    const clientId = `bookshop-client-${clients.size + 1}`;
    const name = typeof body.client_name === 'string' ? body.client_name : clientId;
    clients.set(clientId, { redirectUris: uris as string[], name });
    return json(
      {
        ...body,
        client_id: clientId,
        client_id_issued_at: Math.floor(Date.now() / 1000),
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
      },
      201,
    );
  };

  const authorize = (query: URLSearchParams) => {
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    const client = clients.get(clientId);
    // An unknown client or redirect URI is shown to the user, never redirected to (RFC 6749 §4.1.2.1).
    if (client === undefined)
      return page(400, 'Unknown client', `<p>No client is registered as "${esc(clientId)}".</p>`);
    if (!client.redirectUris.includes(redirectUri)) {
      return page(400, 'Bad redirect URI', `<p>"${esc(redirectUri)}" is not registered for this client.</p>`);
    }
    const back = new URL(redirectUri);
    const reply = (params: Record<string, string>) => {
      for (const [name, value] of Object.entries(params)) back.searchParams.set(name, value);
      const state = query.get('state');
      if (state !== null) back.searchParams.set('state', state);
      back.searchParams.set('iss', issuer);
      return new Response(null, {
        status: 302,
        headers: { location: back.href, 'cache-control': 'no-store' },
      });
    };
    const challenge = query.get('code_challenge') ?? '';
    if (query.get('response_type') !== 'code') return reply({ error: 'unsupported_response_type' });
    if (query.get('code_challenge_method') !== 'S256' || !/^[\w-]{43}$/.test(challenge)) {
      return reply({ error: 'invalid_request', error_description: 'PKCE S256 is required' });
    }
    const resource = query.get('resource');
    if (resource === null || !isUrl(resource)) {
      return reply({ error: 'invalid_target', error_description: 'resource (RFC 8707) is required' });
    }
    const scopes = (query.get('scope') ?? offered.join(' ')).split(' ').filter(Boolean);
    if (!scopes.every((scope) => offered.includes(scope))) return reply({ error: 'invalid_scope' });
    const consent = query.get('consent');
    if (consent === 'deny') return reply({ error: 'access_denied' });
    if (!autoApprove && consent !== 'approve') {
      const link = (answer: string) => {
        const url = new URL(`${issuer}/authorize`);
        for (const [name, value] of query) url.searchParams.set(name, value);
        url.searchParams.set('consent', answer);
        return esc(url.href);
      };
      return page(
        200,
        'Sign in to the bookshop',
        `<p><b>${esc(client.name)}</b> asks to act as <b>${esc(subject)}</b> on ${esc(resource)}
         with: ${esc(scopes.join(', '))}.</p>
         <p><a href="${link('approve')}">Approve</a> · <a href="${link('deny')}">Deny</a></p>`,
      );
    }
    const code = random();
    codes.set(code, {
      clientId,
      redirectUri,
      challenge,
      resource,
      scopes,
      subject,
      expiresAt: Date.now() + 60_000,
    });
    return reply({ code });
  };

  /** The service client a client_credentials request authenticates as (Basic or post), or `undefined`. */
  const authenticateService = (body: URLSearchParams, authorization: string | null) => {
    let id = body.get('client_id');
    let secret = body.get('client_secret');
    if (authorization?.startsWith('Basic ')) {
      const pair = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
      const colon = pair.indexOf(':');
      if (colon < 0 || secret !== null) return undefined; // one method per request (RFC 6749 §2.3)
      const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
      id = decode(pair.slice(0, colon));
      secret = decode(pair.slice(colon + 1));
    }
    const service = services.get(id ?? '');
    if (id === null || secret === null || service === undefined) return undefined;
    const hash = createHash('sha256').update(secret).digest();
    return timingSafeEqual(hash, service.secretHash) ? { clientId: id, service } : undefined;
  };

  const clientCredentials = (body: URLSearchParams, authorization: string | null) => {
    const client = authenticateService(body, authorization);
    if (client === undefined) {
      return json({ error: 'invalid_client' }, 401, { 'www-authenticate': 'Basic realm="bookshop"' });
    }
    const resource = body.get('resource');
    if (resource === null || !isUrl(resource)) {
      return json({ error: 'invalid_target', error_description: 'resource (RFC 8707) is required' }, 400);
    }
    const asked = body.get('scope');
    const scopes = asked === null ? [...client.service.scopes] : asked.split(' ').filter(Boolean);
    if (!scopes.every((scope) => client.service.scopes.includes(scope)))
      return json({ error: 'invalid_scope' }, 400);
    const accessToken = issueToken({ clientId: client.clientId, subject: client.clientId, resource, scopes });
    return json({
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: expiresIn,
      scope: scopes.join(' '),
    });
  };

  const token = (body: URLSearchParams, authorization: string | null) => {
    if (body.get('grant_type') === 'client_credentials') return clientCredentials(body, authorization);
    if (body.get('grant_type') !== 'authorization_code')
      return json({ error: 'unsupported_grant_type' }, 400);
    const code = body.get('code') ?? '';
    const grant = codes.get(code);
    codes.delete(code); // single use, whatever happens next
    if (grant === undefined || grant.expiresAt < Date.now()) return json({ error: 'invalid_grant' }, 400);
    if (body.get('client_id') !== grant.clientId) return json({ error: 'invalid_client' }, 401);
    if (body.get('redirect_uri') !== grant.redirectUri) return json({ error: 'invalid_grant' }, 400);
    if (s256(body.get('code_verifier') ?? '') !== grant.challenge) {
      return json({ error: 'invalid_grant', error_description: 'PKCE verification failed' }, 400);
    }
    const resource = body.get('resource') ?? grant.resource;
    if (resource !== grant.resource) return json({ error: 'invalid_target' }, 400);
    const accessToken = issueToken({
      clientId: grant.clientId,
      subject: grant.subject,
      resource,
      scopes: grant.scopes,
    });
    return json({
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: expiresIn,
      scope: grant.scopes.join(' '),
    });
  };

  const route = async (request: Request): Promise<Response> => {
    const { pathname, searchParams } = new URL(request.url);
    if (pathname === '/.well-known/oauth-authorization-server' && request.method === 'GET')
      return json(metadata());
    if (pathname === '/register' && request.method === 'POST') {
      const body = await request.json().catch(() => undefined);
      if (typeof body !== 'object' || body === null) return json({ error: 'invalid_client_metadata' }, 400);
      return register(body as Record<string, unknown>);
    }
    if (pathname === '/authorize' && request.method === 'GET') return authorize(searchParams);
    if (pathname === '/token' && request.method === 'POST') {
      return token(new URLSearchParams(await request.text()), request.headers.get('authorization'));
    }
    return json({ error: 'not_found' }, 404);
  };

  const server = createServer((req, res) => void serve(req, res, route));
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  return {
    issuer,
    verify: (accessToken, resource) => {
      const issued = tokens.get(accessToken);
      if (issued === undefined || issued.resource !== resource) return undefined;
      if (issued.expiresAt <= Date.now() / 1000) return undefined;
      const { clientId, subject: sub, scopes, expiresAt } = issued;
      return { clientId, issuer, subject: sub, scopes, expiresAt };
    },
    issueToken: (grant) => issueToken({ ...grant, scopes: [...grant.scopes] }),
    registerServiceClient: ({ name, scopes = offered }) => {
      if (!scopes.every((scope) => offered.includes(scope))) {
        throw new RangeError(`"scopes" expected some of ${offered.join(', ')}, got ${scopes.join(', ')}`);
      }
      const clientId = `bookshop-service-${name}`;
      const clientSecret = random();
      services.set(clientId, {
        secretHash: createHash('sha256').update(clientSecret).digest(),
        scopes: [...scopes],
      });
      return { clientId, clientSecret };
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  route: (request: Request) => Promise<Response>,
) {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? 'GET';
    const request = new Request(new URL(req.url ?? '/', 'http://127.0.0.1'), {
      method,
      headers: {
        'content-type': req.headers['content-type'] ?? 'application/octet-stream',
        ...(req.headers.authorization !== undefined && { authorization: req.headers.authorization }),
      },
      ...(method !== 'GET' && method !== 'HEAD' && { body: Buffer.concat(chunks) }),
    });
    const response = await route(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch {
    if (!res.headersSent) res.writeHead(500).end();
  }
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

function page(status: number, title: string, body: string): Response {
  const html = `<!doctype html><meta charset="utf-8"><title>${esc(title)}</title><h1>${esc(title)}</h1>${body}`;
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function isUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}
