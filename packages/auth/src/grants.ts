import { argumentError } from '@boomerang/protocol';
import {
  type AuthorizationServerMetadata,
  discoverAuthorizationServer,
  type FetchLike,
} from './discovery.js';
import { OAuthError } from './errors.js';
import { isLoopbackUrl } from './secure.js';
import type { ClientCredentials } from './store.js';
import type { TokenResponse } from './token.js';
import { exchangeToken, TokenTypes } from './token-exchange.js';

/** The RFC 7523 §2.1 grant type: an assertion JWT exchanged for an access token. */
const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

type Awaitable<T> = T | Promise<T>;

/** A token, or where to get a fresh one each time (a file that the platform rotates, a token service). */
export type TokenSource = string | (() => Awaitable<string>);

/** What a {@link MachineGrant} gets from `withOAuth` for one authorization. */
export interface GrantContext {
  /** The authorization server's validated metadata (issuer checked, endpoints `https` or loopback). */
  readonly as: AuthorizationServerMetadata;
  /** The RFC 8707 resource, exactly as the Protected Resource Metadata published it. */
  readonly resource: string;
  /** The scopes to ask for (the challenge's, else PRM `scopes_supported`); may be empty. */
  readonly scopes: readonly string[];
  /**
   * POSTs `params` to the authorization server's token endpoint, authenticated as `client` (none when undefined),
   * with `resource` and `scope` added, and resolves to the access token. DPoP proofs are added here when
   * `withOAuth` holds a DPoP key.
   */
  requestToken(
    client: ClientCredentials | undefined,
    params: Readonly<Record<string, string>>,
  ): Promise<TokenResponse>;
  /** The `fetch` `withOAuth` wraps, for requests to other parties (an identity provider). */
  readonly fetch: FetchLike;
  /** Progress notes (never a secret). */
  readonly note: (message: string) => void;
}

/**
 * A grant that obtains an access token without a person: `withOAuth(fetch, { grant })` runs it on every 401 (and
 * 403 `insufficient_scope`) after discovery, instead of the authorization-code flow. {@link clientCredentials},
 * {@link workloadIdentity} and {@link enterpriseManaged} are the built-in ones; a custom grant implements this.
 *
 * A machine grant sends something secret (a client secret, a signed assertion, a platform token) to the token
 * endpoint, so it is bound to one authorization server: `withOAuth` runs it only when the MCP server's Protected
 * Resource Metadata lists exactly `issuer`, and otherwise fails with `OAuthError('untrusted-issuer')` before
 * anything is sent. A malicious MCP server naming its own authorization server gets nothing.
 */
export interface MachineGrant {
  /** The `grant_type` it sends to the authorization server (for notes and errors). */
  readonly grantType: string;
  /**
   * The issuer identifier of the only authorization server this grant may talk to (compared as an exact string,
   * RFC 8414 §3.3): `https`, or `http` on a loopback host.
   */
  readonly issuer: string;
  /** Obtains an access token for `context.resource`; rejects with `OAuthError` when it cannot. */
  obtain(context: GrantContext): Promise<TokenResponse>;
}

/** Options of {@link clientCredentials}: the client, and the authorization server it is registered at. */
export interface ClientCredentialsOptions extends ClientCredentials {
  /** The issuer of the authorization server this client is registered at; no other one is ever sent the secret. */
  readonly issuer: string;
}

/**
 * The client credentials grant (RFC 6749 §4.4): the client is the principal. The client is confidential: a
 * `clientSecret` (sent with `client_secret_basic`, or `client_secret_post` when the authorization server lists only
 * that, or as `tokenEndpointAuthMethod` says) or an `assertion` signer (`private_key_jwt`, see `privateKeyJwt()` in
 * `@boomerang/auth/jwt`), registered at `issuer`, the only authorization server it is used with. No refresh tokens:
 * when the token expires or is refused, the grant simply runs again.
 */
export function clientCredentials(options: ClientCredentialsOptions): MachineGrant {
  requireClient(options, '"client"');
  const issuer = requireIssuer(options.issuer, 'issuer');
  if (typeof options.clientSecret !== 'string' && typeof options.assertion !== 'function') {
    throw new TypeError('"client" expected a clientSecret or an assertion signer (a confidential client)');
  }
  const { issuer: _, ...client } = options;
  return {
    grantType: 'client_credentials',
    issuer,
    obtain: (context) => context.requestToken(client, { grant_type: 'client_credentials' }),
  };
}

/** Options of {@link workloadIdentity}. */
export interface WorkloadIdentityOptions {
  /**
   * The issuer of the authorization server that trusts the platform's tokens (the audience they were minted
   * for); no other one is ever sent the token.
   */
  readonly issuer: string;
  /**
   * The workload's identity token: a JWT its platform issued for this authorization server (Kubernetes projected
   * service-account token, cloud workload identity, CI OIDC token). A function is called for every grant, so a
   * rotated token file is read afresh: see `workloadToken()` in `@boomerang/auth/node`.
   */
  readonly assertion: TokenSource;
  /** Client authentication, when the authorization server wants it besides the assertion. Default: none. */
  readonly client?: ClientCredentials | undefined;
}

/**
 * Workload identity federation (SEP-1933): the RFC 7523 JWT bearer grant
 * (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`, `assertion=<the platform's JWT>`). A refusal
 * (`invalid_grant`, `invalid_scope`, `unauthorized_client`…) is reported as `OAuthError('token')` at once: the grant
 * is neither retried nor replaced by another one, and the token is never shown.
 */
export function workloadIdentity(options: WorkloadIdentityOptions): MachineGrant {
  requireSource(options?.assertion, '"assertion"');
  const issuer = requireIssuer(options.issuer, 'issuer');
  if (options.client !== undefined) requireClient(options.client, '"client"');
  return {
    grantType: JWT_BEARER_GRANT,
    issuer,
    obtain: async (context) => {
      const assertion = await readJwt(options.assertion, 'the workload identity token');
      return context.requestToken(options.client, { grant_type: JWT_BEARER_GRANT, assertion });
    },
  };
}

/** The enterprise identity provider of {@link enterpriseManaged}. */
export interface IdentityProvider {
  /** Its issuer identifier (the audience of `private_key_jwt` assertions made for it). */
  readonly issuer: string;
  /** Its token endpoint; discovered from `issuer`'s metadata when absent. */
  readonly tokenEndpoint?: string | undefined;
  /** This application's client at the identity provider. Default: no client authentication. */
  readonly client?: ClientCredentials | undefined;
}

/** Options of {@link enterpriseManaged}. */
export interface EnterpriseManagedOptions {
  /**
   * The issuer of the MCP server's authorization server that `client` is registered at (the ID-JAG's audience);
   * no ID-JAG is requested for, and no client secret sent to, any other one.
   */
  readonly issuer: string;
  /** The user's ID token from the enterprise identity provider (the single sign-on the host already did). */
  readonly idToken: TokenSource;
  /** The identity provider that issued it and exchanges it. */
  readonly identityProvider: IdentityProvider;
  /** This application's client at the MCP server's authorization server. */
  readonly client: ClientCredentials;
}

/**
 * Enterprise-managed authorization (SEP-990, the Identity Assertion JWT Authorization Grant): the enterprise's
 * identity provider decides which MCP servers a signed-in user may reach, without a consent screen.
 * 1. RFC 8693 token exchange at the identity provider: the user's ID token (`subject_token_type` `id_token`) for an
 *    ID-JAG (`requested_token_type` `urn:ietf:params:oauth:token-type:id-jag`), with `audience` = the MCP
 *    authorization server's issuer and `resource` = the MCP server;
 * 2. RFC 7523 JWT bearer grant at that authorization server: the ID-JAG as `assertion`, authenticated as `client`.
 */
export function enterpriseManaged(options: EnterpriseManagedOptions): MachineGrant {
  requireSource(options?.idToken, '"idToken"');
  const issuer = requireIssuer(options.issuer, 'issuer');
  const idp = options.identityProvider;
  if (typeof idp?.issuer !== 'string' || idp.issuer === '') {
    throw argumentError('identityProvider.issuer', "the identity provider's issuer URL", idp?.issuer);
  }
  if (idp.tokenEndpoint !== undefined && typeof idp.tokenEndpoint !== 'string') {
    throw argumentError('identityProvider.tokenEndpoint', 'a URL string', idp.tokenEndpoint);
  }
  if (idp.client !== undefined) requireClient(idp.client, '"identityProvider.client"');
  requireClient(options.client, '"client"');
  let discovered: Promise<string> | undefined;
  const tokenEndpoint = (fetch: FetchLike): Promise<string> => {
    if (idp.tokenEndpoint !== undefined) return Promise.resolve(idp.tokenEndpoint);
    discovered ??= discoverAuthorizationServer(idp.issuer, fetch, { authorizationCode: false }).then(
      (metadata) => metadata.token_endpoint,
      (error: unknown) => {
        discovered = undefined;
        throw error;
      },
    );
    return discovered;
  };
  return {
    grantType: JWT_BEARER_GRANT,
    issuer,
    obtain: async (context) => {
      const subjectToken = await readJwt(options.idToken, 'the ID token');
      const server = { issuer: idp.issuer, token_endpoint: await tokenEndpoint(context.fetch) };
      context.note(`exchanging the ID token for an ID-JAG at ${server.token_endpoint}`);
      const grant = await exchangeToken(
        server,
        idp.client,
        {
          subjectToken,
          subjectTokenType: TokenTypes.idToken,
          requestedTokenType: TokenTypes.idJag,
          audience: context.as.issuer,
          resource: context.resource,
          scopes: context.scopes,
        },
        context.fetch,
      );
      return context.requestToken(options.client, { grant_type: JWT_BEARER_GRANT, assertion: grant.token });
    },
  };
}

function requireClient(client: ClientCredentials | undefined, what: string): void {
  if (typeof client?.clientId !== 'string' || client.clientId === '') {
    throw new TypeError(
      `${what} expected { clientId: string, … }, got ${client === undefined ? 'undefined' : 'no clientId'}`,
    );
  }
}

/** An issuer identifier: a URL string, `https` or loopback `http` (checked again when discovered). */
export function requireIssuer(issuer: unknown, name: string): string {
  if (typeof issuer !== 'string' || !URL.canParse(issuer)) {
    throw argumentError(name, "the authorization server's issuer URL", issuer);
  }
  const url = new URL(issuer);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackUrl(issuer))) {
    throw argumentError(name, 'an https issuer URL (http only on a loopback host)', issuer);
  }
  return issuer;
}

function requireSource(source: TokenSource | undefined, what: string): void {
  if (typeof source !== 'function' && (typeof source !== 'string' || source === '')) {
    throw new TypeError(`${what} expected a token string or a function returning one`);
  }
}

const JWT = /^[\w-]+\.[\w-]+\.[\w-]*$/;

/** Reads a token from its source; it must look like a JWT. Errors name `what`, never the token. */
async function readJwt(source: TokenSource, what: string): Promise<string> {
  let token: unknown;
  try {
    token = typeof source === 'function' ? await source() : source;
  } catch (error) {
    throw new OAuthError('token', `could not read ${what}`, { cause: error });
  }
  if (typeof token !== 'string' || !JWT.test(token)) {
    throw new OAuthError('token', `${what} is not a JWT`);
  }
  return token;
}
