import { authorizeWithCode, type RedirectStep } from './authorize.js';
import { type BearerChallenge, parseBearerChallenge, parseDpopChallenge } from './challenge.js';
import {
  type AuthorizationServerMetadata,
  discoverAuthorizationServer,
  discoverProtectedResource,
  type FetchLike,
  resourceMatches,
  resourceOf,
} from './discovery.js';
import { createDpopSession, type DpopSigner } from './dpop.js';
import { OAuthError } from './errors.js';
import { type GrantContext, type MachineGrant, requireIssuer } from './grants.js';
import { type ClientIdentityOptions, resolveClient } from './registration.js';
import { requireSecure } from './secure.js';
import { memoryStore, type OAuthStore, type TokenSet } from './store.js';
import { requestToken, type TokenResponse } from './token.js';

/** Options every {@link withOAuth} configuration shares. */
export interface OAuthBaseOptions {
  /** Client credentials and tokens. Default {@link memoryStore} (forgets on exit). */
  readonly store?: OAuthStore | undefined;
  /** Authorizations (initial plus step-ups) one request may trigger before it fails with `retry-limit`. Default 3. */
  readonly maxAuthorizations?: number | undefined;
  /** Progress notes (URLs, status codes, reasons; never a secret), for debugging. Default: silent. */
  readonly onEvent?: ((message: string) => void) | undefined;
  /** The time in epoch milliseconds; for tests. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /**
   * Sender-constrained tokens (DPoP, RFC 9449): proofs signed with this key go to every token endpoint (unless
   * it lists DPoP algorithms without this one), and a `DPoP` token is then presented as `Authorization: DPoP`
   * with a fresh proof per request (method, URL, token hash, latest server nonce). A `use_dpop_nonce` answer from
   * the authorization or the resource server is retried with its nonce. `generateDpopKey()` from
   * `@boomerang/auth/jwt` makes one. Default: Bearer tokens only.
   */
  readonly dpop?: DpopSigner | undefined;
}

/** Options of {@link withOAuth} for the interactive flow: a person signs in (authorization code + PKCE). */
export interface OAuthOptions extends OAuthBaseOptions, ClientIdentityOptions {
  /** The redirect step (browser, loopback listener, or {@link headlessRedirect} for tests and agents). */
  readonly authorize: RedirectStep;
  /** Ask for `offline_access` (a refresh token) when the authorization server lists it. Default true. */
  readonly offlineAccess?: boolean | undefined;
  readonly grant?: undefined;
}

/** Options of {@link withOAuth} for machine-to-machine authorization: no person, no redirect. */
export interface MachineOAuthOptions extends OAuthBaseOptions {
  /** How to obtain tokens: `clientCredentials(...)`, `workloadIdentity(...)`, `enterpriseManaged(...)` or your own. */
  readonly grant: MachineGrant;
  readonly authorize?: undefined;
}

/** Refresh this long before `expiresAt`, in seconds. */
const EXPIRY_MARGIN = 30;

/**
 * Wraps `fetch` with the MCP authorization flow, for `StreamableHttpClientTransport`'s `fetch` option (no
 * dependency between the packages: both speak `(input: URL, init: RequestInit) => Promise<Response>`).
 * With `grant` ({@link MachineOAuthOptions}) step 4 below is that grant instead (no redirect, no registration,
 * no refresh: it runs again when its token expires or is refused); the rest is the same.
 *
 * Every request to an MCP server URL carries `Authorization: Bearer <token>` once the client holds one for that
 * URL (refreshed shortly before it expires), or `Authorization: DPoP <token>` and a fresh proof for a token
 * bound to the `dpop` key. When the server answers 401, or 403 with `insufficient_scope`:
 * 1. Protected Resource Metadata is discovered (RFC 9728) and its `resource` must name the server, else
 *    `resource-mismatch` before any authorization request;
 * 2. the first listed authorization server's metadata is discovered and validated (RFC 8414 / OIDC); with a
 *    `grant`, the grant's own `issuer` instead, and only when the metadata lists it (else
 *    `OAuthError('untrusted-issuer')`, before any token request: a machine's secret never reaches an
 *    authorization server the MCP server picked);
 * 3. on a 401 with a refresh token from that same authorization server, the token is refreshed; otherwise
 * 4. a client identity is resolved (stored or pre-registered for that issuer, Client ID Metadata Document, or
 *    Dynamic Client Registration), the scopes chosen (the challenge's, united with those asked before; else
 *    PRM `scopes_supported`; else none; plus `offline_access` when the AS lists it), and the
 *    authorization-code grant runs with PKCE S256, `resource`, RFC 9207 `iss` checks;
 * 5. the request is sent again with the new token (its body must be re-sendable: the transport sends strings).
 * At most `maxAuthorizations` (default 3) authorizations per request, then `OAuthError('retry-limit')`.
 * Tokens are tagged with their issuer: when the metadata names another authorization server they are dropped,
 * and the client registers anew there. Concurrent requests share one authorization. Other responses pass
 * through untouched. Failures reject with {@link OAuthError}, whose messages hold no secret.
 */
export function withOAuth(
  fetch: FetchLike | undefined,
  options: OAuthOptions | MachineOAuthOptions,
): FetchLike {
  const machine = options?.grant;
  if (machine !== undefined) {
    if (typeof machine?.obtain !== 'function' || typeof machine.grantType !== 'string') {
      throw new TypeError('"grant" expected a MachineGrant { grantType, issuer, obtain(context) }');
    }
    requireIssuer(machine.issuer, 'grant.issuer');
  } else if (typeof options?.authorize !== 'function') {
    throw new TypeError('"authorize" expected a function (authorizationUrl) => redirect URL');
  } else {
    requireSecure(options.redirectUri, 'redirect URI');
  }
  const max = options.maxAuthorizations ?? 3;
  if (!Number.isSafeInteger(max) || max < 1) {
    throw new RangeError(`"maxAuthorizations" expected an integer ≥ 1, got ${String(max)}`);
  }
  const base: FetchLike = fetch ?? ((input, init) => globalThis.fetch(input, init));
  const store = options.store ?? memoryStore();
  const now = options.now ?? Date.now;
  const note = options.onEvent ?? (() => {});
  const dpop = options.dpop === undefined ? undefined : createDpopSession(options.dpop);
  const tokenOptions = { now, dpop };
  const metadata = new Map<string, Promise<AuthorizationServerMetadata>>();
  const inflight = new Map<string, Promise<void>>();

  const metadataFor = (issuer: string): Promise<AuthorizationServerMetadata> => {
    let known = metadata.get(issuer);
    if (known === undefined) {
      note(`discovering authorization server ${issuer}`);
      known = discoverAuthorizationServer(issuer, base, { authorizationCode: machine === undefined });
      known.catch(() => metadata.delete(issuer));
      metadata.set(issuer, known);
    }
    return known;
  };

  /** Stores a token response; `keep` carries what it may omit (the refresh token) and the scopes asked. */
  const save = async (
    resource: string,
    issuer: string,
    got: TokenResponse,
    keep: {
      readonly refreshToken?: string | undefined;
      readonly requestedScopes?: readonly string[] | undefined;
    },
  ) => {
    const refreshToken = got.refreshToken ?? keep.refreshToken;
    await store.saveTokens(resource, {
      issuer,
      accessToken: got.accessToken,
      ...(refreshToken !== undefined && { refreshToken }),
      ...(got.expiresAt !== undefined && { expiresAt: got.expiresAt }),
      ...(keep.requestedScopes !== undefined && { requestedScopes: keep.requestedScopes }),
      ...(got.tokenType === 'DPoP' && { tokenType: 'DPoP' as const }),
    });
  };

  const refresh = async (resource: string, tokens: TokenSet): Promise<boolean> => {
    if (tokens.refreshToken === undefined || machine !== undefined) return false;
    try {
      const as = await metadataFor(tokens.issuer);
      const client = await resolveClient(as, options, store, base);
      note(`refreshing the token for ${resource} at ${as.token_endpoint}`);
      const grant = { grant_type: 'refresh_token', refresh_token: tokens.refreshToken, resource };
      await save(resource, as.issuer, await requestToken(as, client, grant, base, tokenOptions), tokens);
      return true;
    } catch (error) {
      note(`refresh failed: ${error instanceof Error ? error.message : String(error)}`);
      await store.deleteTokens(resource);
      return false;
    }
  };

  const currentTokens = async (resource: string): Promise<TokenSet | undefined> => {
    let tokens = await store.getTokens(resource);
    if (tokens?.expiresAt !== undefined && tokens.expiresAt - EXPIRY_MARGIN <= now() / 1000) {
      const expired = tokens.accessToken;
      if (await refresh(resource, tokens)) {
        tokens = await store.getTokens(resource);
      } else {
        // Forget it (unless another request replaced it meanwhile), so the 401 that follows authorizes anew.
        if ((await store.getTokens(resource))?.accessToken === expired) await store.deleteTokens(resource);
        tokens = undefined;
      }
    }
    // A DPoP-bound token is unusable without the DPoP key (another configuration shares the store).
    return tokens?.tokenType === 'DPoP' && dpop === undefined ? undefined : tokens;
  };

  const authorize = async (
    url: URL,
    resource: string,
    challenge: BearerChallenge | undefined,
    status: number,
    mayRefresh: boolean,
  ) => {
    note(`HTTP ${status} from ${resource}; discovering its Protected Resource Metadata`);
    const { url: prmUrl, metadata: prm } = await discoverProtectedResource(
      url,
      base,
      challenge?.resourceMetadata,
    );
    if (!resourceMatches(url, prm.resource)) {
      throw new OAuthError(
        'resource-mismatch',
        `${prmUrl} describes resource ${JSON.stringify(prm.resource)}, not ${JSON.stringify(resource)}: not authorizing`,
      );
    }
    const issuer = machine === undefined ? (prm.authorization_servers[0] as string) : machine.issuer;
    if (machine !== undefined && !prm.authorization_servers.includes(issuer)) {
      // The grant's secret goes to its own authorization server or nowhere: never to one the MCP server names.
      throw new OAuthError(
        'untrusted-issuer',
        `${prmUrl} names ${prm.authorization_servers.map((s) => JSON.stringify(s)).join(', ')}, not the ${machine.grantType} grant's issuer ${JSON.stringify(issuer)}: not authorizing`,
      );
    }
    let tokens = await store.getTokens(resource);
    if (tokens !== undefined && tokens.issuer !== issuer) {
      note(`the authorization server changed from ${tokens.issuer} to ${issuer}; dropping its tokens`);
      await store.deleteTokens(resource);
      tokens = undefined;
    }
    const as = await metadataFor(issuer);
    if (status === 401 && mayRefresh && tokens !== undefined && (await refresh(resource, tokens))) return;
    const previous = tokens?.requestedScopes ?? [];
    let scopes: string[] =
      challenge?.scope !== undefined
        ? [...new Set([...previous, ...challenge.scope])]
        : previous.length > 0
          ? [...previous]
          : [...(prm.scopes_supported ?? [])];
    if (machine !== undefined) {
      note(
        `requesting a token for ${prm.resource} at ${as.token_endpoint} with the ${machine.grantType} grant (scope: ${scopes.join(' ') || 'none'})`,
      );
      const context: GrantContext = {
        as,
        resource: prm.resource,
        scopes,
        fetch: base,
        note,
        requestToken: (client, params) => {
          const grantParams: Record<string, string> = { ...params, resource: prm.resource };
          if (scopes.length > 0) grantParams.scope = scopes.join(' ');
          return requestToken(as, client, grantParams, base, tokenOptions);
        },
      };
      await save(resource, as.issuer, await machine.obtain(context), { requestedScopes: scopes });
      return;
    }
    if (options.offlineAccess !== false && as.scopes_supported?.includes('offline_access')) {
      scopes = [...new Set([...scopes, 'offline_access'])];
    }
    const client = await resolveClient(as, options, store, base);
    note(
      `authorizing ${prm.resource} at ${as.authorization_endpoint} (scope: ${scopes.join(' ') || 'none'})`,
    );
    const request = { as, client, redirectUri: options.redirectUri, resource: prm.resource, scopes };
    const got = await authorizeWithCode(request, options.authorize, base, tokenOptions);
    await save(resource, as.issuer, got, { requestedScopes: scopes });
  };

  const send = async (url: URL, init: RequestInit, resource: string) => {
    const tokens = await currentTokens(resource);
    const token = tokens?.accessToken;
    const headers = new Headers(init.headers);
    if (token !== undefined && tokens?.tokenType === 'DPoP' && dpop !== undefined) {
      headers.set('authorization', `DPoP ${token}`);
      headers.set('dpop', await dpop.proof(init.method ?? 'GET', url, token));
    } else if (token !== undefined) {
      headers.set('authorization', `Bearer ${token}`);
    }
    const response = await base(url, { ...init, headers });
    dpop?.learn(url, response);
    return { response, token };
  };

  return async (input, init = {}) => {
    const url = new URL(input);
    const resource = resourceOf(url);
    let { response, token } = await send(url, init, resource);
    let authorizations = 0;
    let nonceRetries = 0;
    for (let round = 0; round <= 2 * max + 3; round++) {
      const denied = response.status === 401 || response.status === 403;
      const challenge = denied ? challengeOf(response.headers.get('www-authenticate')) : undefined;
      if (!denied || (response.status === 403 && challenge?.error !== 'insufficient_scope')) return response;
      if (init.body instanceof ReadableStream) return response; // cannot be sent twice
      if (challenge?.error === 'use_dpop_nonce') {
        // RFC 9449 §9: the resource server wants its nonce (now learned) in the proof; not a new authorization.
        if (dpop === undefined || nonceRetries >= 2) return response;
        nonceRetries++;
        note(`${resource} asked for a DPoP nonce; sending again with it`);
        await response.body?.cancel().catch(() => {});
        ({ response, token } = await send(url, init, resource));
        continue;
      }
      const latest = (await store.getTokens(resource))?.accessToken;
      const pending = inflight.get(resource); // read after the last await: no other request slips in between
      if (pending !== undefined) {
        await pending; // another request is authorizing this server: share its outcome
      } else if (latest === undefined || latest === token) {
        if (authorizations >= max) {
          throw new OAuthError(
            'retry-limit',
            `${resource} still answered HTTP ${response.status} after ${max} authorizations`,
          );
        }
        authorizations++;
        const job = authorize(url, resource, challenge, response.status, authorizations === 1);
        inflight.set(resource, job);
        try {
          await job;
        } finally {
          inflight.delete(resource);
        }
      }
      await response.body?.cancel().catch(() => {});
      ({ response, token } = await send(url, init, resource));
    }
    return response;
  };
}

/**
 * The challenge of a 401/403: the `DPoP` or the `Bearer` one, whichever carries an `error` (DPoP first), else
 * Bearer, else DPoP; `resource_metadata` and `scope` from the other when the chosen one lacks them.
 */
function challengeOf(header: string | null): BearerChallenge | undefined {
  const dpop = parseDpopChallenge(header);
  const bearer = parseBearerChallenge(header);
  const [first, other] =
    dpop?.error !== undefined || (bearer?.error === undefined && bearer === undefined)
      ? [dpop, bearer]
      : [bearer, dpop];
  if (first === undefined) return other;
  const resourceMetadata = first.resourceMetadata ?? other?.resourceMetadata;
  const scope = first.scope ?? other?.scope;
  return {
    ...first,
    ...(resourceMetadata !== undefined && { resourceMetadata }),
    ...(scope !== undefined && { scope }),
  };
}
