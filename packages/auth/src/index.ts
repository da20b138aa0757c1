// @boomerang/auth: OAuth 2.1 for MCP, both sides: the client's withOAuth() fetch wrapper and its grants, DPoP
// and discovery; the resource server's bearerAuth() hooks.

// --- the client: withOAuth and its pluggable pieces

export {
  type AuthorizationCodeRequest,
  authorizeWithCode,
  type ExpectedAuthorizationResponse,
  headlessRedirect,
  type RedirectStep,
  validateAuthorizationResponse,
} from './authorize.js';
export {
  type AuthorizationServerMetadata,
  authorizationServerMetadataUrls,
  discoverAuthorizationServer,
  discoverProtectedResource,
  type FetchLike,
  type ProtectedResourceMetadata,
  resourceMatches,
  resourceOf,
} from './discovery.js';
export { createPkce, type Pkce } from './pkce.js';
export {
  authMethodFor,
  type ClientIdentityOptions,
  type PreRegisteredClients,
  resolveClient,
} from './registration.js';
export {
  type ClientAssertion,
  type ClientCredentials,
  memoryStore,
  type OAuthStore,
  type TokenEndpointAuthMethod,
  type TokenSet,
} from './store.js';
export {
  requestToken,
  type TokenEndpoint,
  type TokenRequestOptions,
  type TokenResponse,
} from './token.js';
export {
  type ExchangedToken,
  exchangeToken,
  type TokenExchangeRequest,
  TokenTypes,
} from './token-exchange.js';
export {
  type MachineOAuthOptions,
  type OAuthBaseOptions,
  type OAuthOptions,
  withOAuth,
} from './with-oauth.js';

// --- the client: machine-to-machine grants for withOAuth({ grant })

export {
  type ClientCredentialsOptions,
  clientCredentials,
  type EnterpriseManagedOptions,
  enterpriseManaged,
  type GrantContext,
  type IdentityProvider,
  type MachineGrant,
  type TokenSource,
  type WorkloadIdentityOptions,
  workloadIdentity,
} from './grants.js';

// --- the client: DPoP (the key and its proofs; generateDpopKey() in /jwt makes a signer)

export { createDpopSession, type DpopProofClaims, type DpopSession, type DpopSigner } from './dpop.js';

// --- the server: the resource-server hooks

export {
  type BearerAuthOptions,
  bearerAuth,
  type DpopProofVerifier,
  type DpopRejection,
  type DpopVerification,
  type ProtectedResourceDocument,
  type ProtectedResourceEndpoint,
  protectedResourceMetadata,
  type TokenVerifier,
} from './bearer.js';

// --- both sides: WWW-Authenticate challenges and OAuth errors

export {
  type BearerChallenge,
  type DpopChallenge,
  formatBearerChallenge,
  formatDpopChallenge,
  parseBearerChallenge,
  parseDpopChallenge,
} from './challenge.js';
export { OAuthError, type OAuthFailure } from './errors.js';
