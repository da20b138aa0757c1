import { argumentError } from '@boomerang/protocol';
import { authorizeWithCode, type RedirectStep } from './authorize.js';
import { type BearerChallenge, parseBearerChallenge, parseDpopChallenge } from './challenge.js';
import {
  type AuthorizationServerMetadata,
  discoverAuthorizationServer,
  discoverProtectedResource,
  type FetchLike,
  type ProtectedResourceMetadata,
  resourceMatches,
  resourceOf,
} from './discovery.js';
import { createDpopSession, type DpopSession, type DpopSigner } from './dpop.js';
import { OAuthError } from './errors.js';
import { type GrantContext, type MachineGrant, requireIssuer } from './grants.js';
import { type ClientIdentityOptions, resolveClient } from './registration.js';
import { requireSecure } from './secure.js';
import { memoryStore, type OAuthStore, type TokenSet } from './store.js';
import { requestToken, type TokenRequestOptions, type TokenResponse } from './token.js';

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
  const max = checkOptions(options);
  const flow = new OAuthFlow(fetch, options, max);
  return (input, init = {}) => flow.fetch(input, init);
}

/** Throws for options `withOAuth` cannot run with; the authorizations one request may trigger. */
function checkOptions(options: OAuthOptions | MachineOAuthOptions): number {
  const machine = options?.grant;
  const authorize: unknown = options?.authorize;
  if (machine !== undefined) {
    if (typeof machine?.obtain !== 'function' || typeof machine.grantType !== 'string') {
      throw argumentError('grant', 'a MachineGrant { grantType, issuer, obtain(context) }', machine);
    }
    requireIssuer(machine.issuer, 'grant.issuer');
  } else if (typeof authorize !== 'function') {
    throw argumentError('authorize', 'a function (authorizationUrl) => redirect URL', authorize);
  } else {
    requireSecure(options.redirectUri, 'redirect URI');
  }
  const max = options.maxAuthorizations ?? 3;
  if (!Number.isSafeInteger(max) || max < 1) {
    throw new RangeError(`"maxAuthorizations" expected an integer ≥ 1, got ${String(max)}`);
  }
  return max;
}

/** What a token response leaves to the tokens it replaces (the refresh token), and the scopes asked. */
interface Kept {
  readonly refreshToken?: string | undefined;
  readonly requestedScopes?: readonly string[] | undefined;
}

/**
 * One {@link withOAuth} fetch: its settings, the authorization server metadata it discovered, the authorizations
 * in flight; the steps of the doc comment above are its methods.
 */
class OAuthFlow {
  readonly #options: OAuthOptions | MachineOAuthOptions;
  readonly #max: number;
  readonly #base: FetchLike;
  readonly #store: OAuthStore;
  readonly #now: () => number;
  readonly #note: (message: string) => void;
  readonly #dpop: DpopSession | undefined;
  readonly #tokenOptions: TokenRequestOptions;
  /** Authorization server metadata by issuer (a failed discovery is forgotten: the next one tries again). */
  readonly #metadata = new Map<string, Promise<AuthorizationServerMetadata>>();
  /** The authorization running for each resource, which concurrent requests share. */
  readonly #inflight = new Map<string, Promise<void>>();

  constructor(fetch: FetchLike | undefined, options: OAuthOptions | MachineOAuthOptions, max: number) {
    this.#options = options;
    this.#max = max;
    this.#base = fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#store = options.store ?? memoryStore();
    this.#now = options.now ?? Date.now;
    this.#note = options.onEvent ?? (() => {});
    this.#dpop = options.dpop === undefined ? undefined : createDpopSession(options.dpop);
    this.#tokenOptions = { now: this.#now, dpop: this.#dpop };
  }

  /**
   * Sends the request with the token held for its server and, while the answer is a 401 (or a 403
   * `insufficient_scope`), authorizes (or answers the DPoP nonce challenge) and sends it again.
   */
  async fetch(input: URL, init: RequestInit): Promise<Response> {
    const url = new URL(input);
    const resource = resourceOf(url);
    let { response, token } = await this.#send(url, init, resource);
    let authorizations = 0;
    let nonceRetries = 0;
    for (let round = 0; round <= 2 * this.#max + 3; round++) {
      const denied = response.status === 401 || response.status === 403;
      const challenge = denied ? challengeOf(response.headers.get('www-authenticate')) : undefined;
      if (!denied || (response.status === 403 && challenge?.error !== 'insufficient_scope')) return response;
      if (init.body instanceof ReadableStream) return response; // cannot be sent twice
      if (challenge?.error === 'use_dpop_nonce') {
        // RFC 9449 §9: the resource server wants its nonce (now learned) in the proof; not a new authorization.
        if (this.#dpop === undefined || nonceRetries >= 2) return response;
        nonceRetries++;
        this.#note(`${resource} asked for a DPoP nonce; sending again with it`);
      } else {
        authorizations = await this.#reauthorize(
          url,
          resource,
          challenge,
          response.status,
          token,
          authorizations,
        );
      }
      await response.body?.cancel().catch(() => {});
      ({ response, token } = await this.#send(url, init, resource));
    }
    return response;
  }

  /**
   * After `status` to a request sent with `token`: shares the authorization another request is running for
   * `resource`, or takes the newer token one stored meanwhile, or runs this request's next authorization
   * (`retry-limit` past the maximum). Resolves to the count of this request's authorizations.
   */
  async #reauthorize(
    url: URL,
    resource: string,
    challenge: BearerChallenge | undefined,
    status: number,
    token: string | undefined,
    authorizations: number,
  ): Promise<number> {
    const latest = (await this.#store.getTokens(resource))?.accessToken;
    const pending = this.#inflight.get(resource); // read after the last await: no other request slips in between
    if (pending !== undefined) {
      await pending; // another request is authorizing this server: share its outcome
      return authorizations;
    }
    if (latest !== undefined && latest !== token) return authorizations;
    if (authorizations >= this.#max) {
      throw new OAuthError(
        'retry-limit',
        `${resource} still answered HTTP ${status} after ${this.#max} authorizations`,
      );
    }
    const job = this.#authorize(url, resource, challenge, status, authorizations === 0);
    this.#inflight.set(resource, job);
    try {
      await job;
    } finally {
      this.#inflight.delete(resource);
    }
    return authorizations + 1;
  }

  /**
   * One authorization for `resource` after it answered `status`: discovery (steps 1–2), then a refresh (3, on a
   * 401 when `mayRefresh`), else the machine grant or the authorization-code flow (4).
   */
  async #authorize(
    url: URL,
    resource: string,
    challenge: BearerChallenge | undefined,
    status: number,
    mayRefresh: boolean,
  ): Promise<void> {
    this.#note(`HTTP ${status} from ${resource}; discovering its Protected Resource Metadata`);
    const { prm, issuer } = await this.#discover(url, resource, challenge);
    const tokens = await this.#tokensFrom(resource, issuer);
    const as = await this.#metadataFor(issuer);
    if (status === 401 && mayRefresh && tokens !== undefined && (await this.#refresh(resource, tokens))) {
      return;
    }
    const scopes = scopesFor(challenge, tokens?.requestedScopes ?? [], prm.scopes_supported);
    const options = this.#options;
    if (options.grant !== undefined) await this.#obtain(options.grant, as, prm, resource, scopes);
    else await this.#signIn(options, as, prm, resource, scopes);
  }

  /**
   * Steps 1–2: the Protected Resource Metadata of `url`, which must describe `resource` (else `resource-mismatch`),
   * and the issuer to ask: the first authorization server it lists, or the machine grant's own issuer when it is
   * listed (else `untrusted-issuer`).
   */
  async #discover(
    url: URL,
    resource: string,
    challenge: BearerChallenge | undefined,
  ): Promise<{ prm: ProtectedResourceMetadata; issuer: string }> {
    const { url: prmUrl, metadata: prm } = await discoverProtectedResource(
      url,
      this.#base,
      challenge?.resourceMetadata,
    );
    if (!resourceMatches(url, prm.resource)) {
      throw new OAuthError(
        'resource-mismatch',
        `${prmUrl} describes resource ${JSON.stringify(prm.resource)}, not ${JSON.stringify(resource)}: not authorizing`,
      );
    }
    const machine = this.#options.grant;
    const issuer = machine === undefined ? (prm.authorization_servers[0] as string) : machine.issuer;
    if (machine !== undefined && !prm.authorization_servers.includes(issuer)) {
      // The grant's secret goes to its own authorization server or nowhere: never to one the MCP server names.
      throw new OAuthError(
        'untrusted-issuer',
        `${prmUrl} names ${prm.authorization_servers.map((s) => JSON.stringify(s)).join(', ')}, not the ${machine.grantType} grant's issuer ${JSON.stringify(issuer)}: not authorizing`,
      );
    }
    return { prm, issuer };
  }

  /** The tokens held for `resource`, or `undefined` once they are dropped for coming from another issuer. */
  async #tokensFrom(resource: string, issuer: string): Promise<TokenSet | undefined> {
    const tokens = await this.#store.getTokens(resource);
    if (tokens === undefined || tokens.issuer === issuer) return tokens;
    this.#note(`the authorization server changed from ${tokens.issuer} to ${issuer}; dropping its tokens`);
    await this.#store.deleteTokens(resource);
    return undefined;
  }

  /** Step 4 with a machine grant: it obtains the token for the resource `prm` describes, under `scopes`. */
  async #obtain(
    machine: MachineGrant,
    as: AuthorizationServerMetadata,
    prm: ProtectedResourceMetadata,
    resource: string,
    scopes: string[],
  ): Promise<void> {
    this.#note(
      `requesting a token for ${prm.resource} at ${as.token_endpoint} with the ${machine.grantType} grant (scope: ${scopes.join(' ') || 'none'})`,
    );
    const context: GrantContext = {
      as,
      resource: prm.resource,
      scopes,
      fetch: this.#base,
      note: this.#note,
      requestToken: (client, params) => {
        const grantParams: Record<string, string> = { ...params, resource: prm.resource };
        if (scopes.length > 0) grantParams.scope = scopes.join(' ');
        return requestToken(as, client, grantParams, this.#base, this.#tokenOptions);
      },
    };
    await this.#save(resource, as.issuer, await machine.obtain(context), { requestedScopes: scopes });
  }

  /**
   * Step 4 with a person: `offline_access` added when the authorization server lists it (and the options do not
   * decline it), a client identity resolved, and the authorization-code grant run.
   */
  async #signIn(
    options: OAuthOptions,
    as: AuthorizationServerMetadata,
    prm: ProtectedResourceMetadata,
    resource: string,
    scopes: string[],
  ): Promise<void> {
    const asked =
      options.offlineAccess !== false && as.scopes_supported?.includes('offline_access')
        ? [...new Set([...scopes, 'offline_access'])]
        : scopes;
    const client = await resolveClient(as, options, this.#store, this.#base);
    this.#note(
      `authorizing ${prm.resource} at ${as.authorization_endpoint} (scope: ${asked.join(' ') || 'none'})`,
    );
    const request = { as, client, redirectUri: options.redirectUri, resource: prm.resource, scopes: asked };
    const got = await authorizeWithCode(request, options.authorize, this.#base, this.#tokenOptions);
    await this.#save(resource, as.issuer, got, { requestedScopes: asked });
  }

  /** Step 3: refreshes the tokens of `resource` (interactive flow only); false (the tokens forgotten) when it fails. */
  async #refresh(resource: string, tokens: TokenSet): Promise<boolean> {
    const options = this.#options;
    if (tokens.refreshToken === undefined || options.grant !== undefined) return false;
    try {
      const as = await this.#metadataFor(tokens.issuer);
      const client = await resolveClient(as, options, this.#store, this.#base);
      this.#note(`refreshing the token for ${resource} at ${as.token_endpoint}`);
      const grant = { grant_type: 'refresh_token', refresh_token: tokens.refreshToken, resource };
      const got = await requestToken(as, client, grant, this.#base, this.#tokenOptions);
      await this.#save(resource, as.issuer, got, tokens);
      return true;
    } catch (error) {
      this.#note(`refresh failed: ${error instanceof Error ? error.message : String(error)}`);
      await this.#store.deleteTokens(resource);
      return false;
    }
  }

  /** The validated metadata of the authorization server `issuer`, discovered once. */
  #metadataFor(issuer: string): Promise<AuthorizationServerMetadata> {
    let known = this.#metadata.get(issuer);
    if (known === undefined) {
      this.#note(`discovering authorization server ${issuer}`);
      known = discoverAuthorizationServer(issuer, this.#base, {
        authorizationCode: this.#options.grant === undefined,
      });
      known.catch(() => this.#metadata.delete(issuer));
      this.#metadata.set(issuer, known);
    }
    return known;
  }

  /** Stores a token response for `resource`; `keep` carries what it may omit (the refresh token) and the scopes asked. */
  async #save(resource: string, issuer: string, got: TokenResponse, keep: Kept): Promise<void> {
    const refreshToken = got.refreshToken ?? keep.refreshToken;
    await this.#store.saveTokens(resource, {
      issuer,
      accessToken: got.accessToken,
      ...(refreshToken !== undefined && { refreshToken }),
      ...(got.expiresAt !== undefined && { expiresAt: got.expiresAt }),
      ...(keep.requestedScopes !== undefined && { requestedScopes: keep.requestedScopes }),
      ...(got.tokenType === 'DPoP' && { tokenType: 'DPoP' as const }),
    });
  }

  /** The tokens to send to `resource`: refreshed shortly before they expire, or forgotten when that fails. */
  async #currentTokens(resource: string): Promise<TokenSet | undefined> {
    let tokens = await this.#store.getTokens(resource);
    if (tokens?.expiresAt !== undefined && tokens.expiresAt - EXPIRY_MARGIN <= this.#now() / 1000) {
      const expired = tokens.accessToken;
      if (await this.#refresh(resource, tokens)) {
        tokens = await this.#store.getTokens(resource);
      } else {
        // Forget it (unless another request replaced it meanwhile), so the 401 that follows authorizes anew.
        if ((await this.#store.getTokens(resource))?.accessToken === expired) {
          await this.#store.deleteTokens(resource);
        }
        tokens = undefined;
      }
    }
    // A DPoP-bound token is unusable without the DPoP key (another configuration shares the store).
    return tokens?.tokenType === 'DPoP' && this.#dpop === undefined ? undefined : tokens;
  }

  /** Sends the request with the current token of `resource` (and a DPoP proof for a bound one). */
  async #send(
    url: URL,
    init: RequestInit,
    resource: string,
  ): Promise<{ response: Response; token: string | undefined }> {
    const tokens = await this.#currentTokens(resource);
    const token = tokens?.accessToken;
    const headers = new Headers(init.headers);
    const dpop = this.#dpop;
    if (token !== undefined && tokens?.tokenType === 'DPoP' && dpop !== undefined) {
      headers.set('authorization', `DPoP ${token}`);
      headers.set('dpop', await dpop.proof(init.method ?? 'GET', url, token));
    } else if (token !== undefined) {
      headers.set('authorization', `Bearer ${token}`);
    }
    const response = await this.#base(url, { ...init, headers });
    dpop?.learn(url, response);
    return { response, token };
  }
}

/**
 * The scopes to ask for: the challenge's united with those asked before; else those asked before; else the
 * Protected Resource Metadata's `scopes_supported`; else none.
 */
function scopesFor(
  challenge: BearerChallenge | undefined,
  previous: readonly string[],
  supported: readonly string[] | undefined,
): string[] {
  if (challenge?.scope !== undefined) return [...new Set([...previous, ...challenge.scope])];
  return previous.length > 0 ? [...previous] : [...(supported ?? [])];
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
