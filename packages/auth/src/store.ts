/** How a client authenticates at the token endpoint (RFC 7591 §2, RFC 7523 §2.2 for `private_key_jwt`). */
export type TokenEndpointAuthMethod =
  | 'client_secret_basic'
  | 'client_secret_post'
  | 'private_key_jwt'
  | 'none';

/**
 * Signs one RFC 7523 client assertion (`private_key_jwt`): a short-lived JWT with `iss` = `sub` = `clientId`,
 * `aud` = `audience` (the authorization server's `issuer`), a fresh `jti`, `iat` and `exp`. Called once per token
 * request, so every assertion is new. It holds the private key: keep it out of logs. `privateKeyJwt()` from
 * `@boomerang/auth/jwt` makes one from a PEM, a JWK or a `CryptoKey`.
 */
export type ClientAssertion = (claims: {
  readonly clientId: string;
  readonly audience: string;
}) => Promise<string>;

/** A client identity at one authorization server: registered, pre-registered or a metadata-document URL. */
export interface ClientCredentials {
  readonly clientId: string;
  /** Absent for public clients. Secret: never logged, never sent to another authorization server. */
  readonly clientSecret?: string;
  /**
   * Authenticate with signed assertions instead of a secret (`private_key_jwt`); takes precedence over
   * `clientSecret`. A function, so stores that serialise credentials keep only registered ones (never this).
   */
  readonly assertion?: ClientAssertion;
  /** How to authenticate at the token endpoint; derived from the credentials and the metadata when absent. */
  readonly tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
}

/** Tokens for one resource, from one authorization server. */
export interface TokenSet {
  /** The `issuer` of the authorization server that issued them; they are never sent after the AS changes. */
  readonly issuer: string;
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Expiry of the access token, seconds since the epoch (from `expires_in`). */
  readonly expiresAt?: number;
  /** The scopes this client asked for (the base of the next step-up union). */
  readonly requestedScopes?: readonly string[];
  /** `DPoP` when the access token is bound to the client's DPoP key; absent for Bearer tokens. */
  readonly tokenType?: 'DPoP';
}

type Awaitable<T> = T | Promise<T>;

/**
 * Where the client keeps what it learns: client credentials keyed by the authorization server's `issuer`
 * (never reused with another issuer), tokens keyed by the MCP server URL (tagged with their issuer). Implement it
 * over a keychain or an encrypted file to survive restarts; the default, {@link memoryStore}, forgets on exit.
 */
export interface OAuthStore {
  /** The credentials registered at the authorization server `issuer` (exact string), if any. */
  getClient(issuer: string): Awaitable<ClientCredentials | undefined>;
  /** Keeps credentials obtained by Dynamic Client Registration at `issuer`. */
  saveClient(issuer: string, client: ClientCredentials): Awaitable<void>;
  /** Forgets the credentials of `issuer` (e.g. after the AS revoked the registration). */
  deleteClient(issuer: string): Awaitable<void>;
  /** The tokens for the MCP server URL `resource` (no query, no fragment), if any. */
  getTokens(resource: string): Awaitable<TokenSet | undefined>;
  /** Replaces the tokens for `resource`. */
  saveTokens(resource: string, tokens: TokenSet): Awaitable<void>;
  /** Forgets the tokens for `resource` (refresh failed, or the authorization server changed). */
  deleteTokens(resource: string): Awaitable<void>;
}

/** An {@link OAuthStore} in two `Map`s, for one process. */
export function memoryStore(): OAuthStore {
  const clients = new Map<string, ClientCredentials>();
  const tokens = new Map<string, TokenSet>();
  return {
    getClient: (issuer) => clients.get(issuer),
    saveClient: (issuer, client) => void clients.set(issuer, client),
    deleteClient: (issuer) => void clients.delete(issuer),
    getTokens: (resource) => tokens.get(resource),
    saveTokens: (resource, set) => void tokens.set(resource, set),
    deleteTokens: (resource) => void tokens.delete(resource),
  };
}
