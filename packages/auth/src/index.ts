// Client: the fetch wrapper and its pluggable pieces.
export {
  type AuthorizationCodeRequest,
  authorizeWithCode,
  type ExpectedAuthorizationResponse,
  headlessRedirect,
  type RedirectStep,
  validateAuthorizationResponse,
} from './authorize.js';
// Server: the resource-server hooks.
export {
  type BearerAuthOptions,
  bearerAuth,
  type ProtectedResourceDocument,
  type ProtectedResourceEndpoint,
  protectedResourceMetadata,
  type TokenVerifier,
} from './bearer.js';
// Both sides: WWW-Authenticate.
export { type BearerChallenge, formatBearerChallenge, parseBearerChallenge } from './challenge.js';
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
export { OAuthError, type OAuthFailure } from './errors.js';
export { createPkce, type Pkce } from './pkce.js';
export {
  authMethodFor,
  type ClientIdentityOptions,
  type PreRegisteredClients,
  resolveClient,
} from './registration.js';
export {
  type ClientCredentials,
  memoryStore,
  type OAuthStore,
  type TokenEndpointAuthMethod,
  type TokenSet,
} from './store.js';
export { requestToken, type TokenResponse } from './token.js';
export { type OAuthOptions, withOAuth } from './with-oauth.js';
