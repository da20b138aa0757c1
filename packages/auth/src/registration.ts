import type { AuthorizationServerMetadata, FetchLike } from './discovery.js';
import { OAuthError } from './errors.js';
import { isLoopbackUrl, requireSecureEndpoint } from './secure.js';
import type { ClientCredentials, OAuthStore, TokenEndpointAuthMethod } from './store.js';

/** Client credentials a person registered by hand, per authorization server `issuer`, or a lookup by issuer. */
export type PreRegisteredClients =
  | Readonly<Record<string, ClientCredentials>>
  | ((issuer: string) => ClientCredentials | undefined);

/** How this client identifies itself; see {@link resolveClient}. */
export interface ClientIdentityOptions {
  /** The redirect URI (registered with DCR, named in every authorization request). */
  readonly redirectUri: string;
  /** Pre-registered credentials, used first when they exist for the issuer. */
  readonly preRegistered?: PreRegisteredClients | undefined;
  /** An `https` URL with a path serving this client's Client ID Metadata Document; used when the AS supports it. */
  readonly clientMetadataUrl?: string | undefined;
  /** `client_name` for Dynamic Client Registration. Default `"MCP client"`. */
  readonly clientName?: string | undefined;
  /** `application_type` for DCR. Default: `"native"` for a loopback redirect URI, else `"web"`. */
  readonly applicationType?: 'native' | 'web' | undefined;
  /** Extra DCR metadata (`client_uri`, `logo_uri`, `software_id`…); the fields above win. */
  readonly clientMetadata?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The client identity to use at the authorization server `as`, in the spec's priority order: stored
 * credentials for this exact `issuer`; pre-registered credentials for it; the Client ID Metadata Document URL when
 * the AS advertises `client_id_metadata_document_supported`; Dynamic Client Registration (RFC 7591, with
 * `application_type`, and `refresh_token` among `grant_types` when the AS supports it), stored under the issuer.
 * Credentials are looked up by issuer only, so nothing from one authorization server reaches another.
 */
export async function resolveClient(
  as: AuthorizationServerMetadata,
  options: ClientIdentityOptions,
  store: OAuthStore,
  fetch: FetchLike,
): Promise<ClientCredentials> {
  const stored = await store.getClient(as.issuer);
  if (stored !== undefined) return stored;
  const pre =
    typeof options.preRegistered === 'function'
      ? options.preRegistered(as.issuer)
      : options.preRegistered?.[as.issuer];
  if (pre !== undefined) return pre;
  if (as.client_id_metadata_document_supported === true && options.clientMetadataUrl !== undefined) {
    return { clientId: options.clientMetadataUrl, tokenEndpointAuthMethod: 'none' };
  }
  if (as.registration_endpoint === undefined) {
    throw new OAuthError(
      'no-client-identity',
      `${as.issuer} has no registration endpoint, no Client ID Metadata Document support for this client, and no pre-registered client was given`,
    );
  }
  const client = await register(as, options, fetch);
  await store.saveClient(as.issuer, client);
  return client;
}

async function register(
  as: AuthorizationServerMetadata,
  options: ClientIdentityOptions,
  fetch: FetchLike,
): Promise<ClientCredentials> {
  const method = preferredAuthMethod(as.token_endpoint_auth_methods_supported);
  const grants = ['authorization_code'];
  if (as.grant_types_supported === undefined || as.grant_types_supported.includes('refresh_token')) {
    grants.push('refresh_token');
  }
  const body = {
    ...options.clientMetadata,
    client_name: options.clientName ?? 'MCP client',
    redirect_uris: [options.redirectUri],
    grant_types: grants,
    response_types: ['code'],
    token_endpoint_auth_method: method,
    application_type: options.applicationType ?? (isLoopbackUrl(options.redirectUri) ? 'native' : 'web'),
  };
  const endpoint = requireSecureEndpoint(as.registration_endpoint, 'registration endpoint', as.issuer);
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      redirect: 'error', // a redirect would re-send the registration elsewhere, unchecked
    });
  } catch (error) {
    throw new OAuthError('registration', `could not reach ${endpoint.href}`, { cause: error });
  }
  const answer = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!response.ok || typeof answer?.client_id !== 'string') {
    const code = typeof answer?.error === 'string' ? ` (${answer.error})` : '';
    throw new OAuthError(
      'registration',
      `${endpoint.href} refused registration: HTTP ${response.status}${code}`,
    );
  }
  const secret = typeof answer.client_secret === 'string' ? answer.client_secret : undefined;
  const registered = answer.token_endpoint_auth_method;
  return {
    clientId: answer.client_id,
    ...(secret !== undefined && { clientSecret: secret }),
    // What the AS confirmed, else what was asked for: a secret the AS volunteers does not change the method.
    tokenEndpointAuthMethod: secret === undefined ? 'none' : isAuthMethod(registered) ? registered : method,
  };
}

/** The method to register: `none` when allowed (a public client keeps no secret), else basic, else post. */
function preferredAuthMethod(supported: readonly string[] | undefined): TokenEndpointAuthMethod {
  if (supported === undefined) return 'client_secret_basic'; // RFC 8414 §2 default
  for (const method of ['none', 'client_secret_basic', 'client_secret_post'] as const) {
    if (supported.includes(method)) return method;
  }
  return 'client_secret_basic';
}

/**
 * The token endpoint authentication for `client` at `as`: `private_key_jwt` when the client signs assertions;
 * without a secret, `none`; the client's own method when known; else `client_secret_basic` when the AS lists it
 * (or lists nothing), else `client_secret_post`.
 */
export function authMethodFor(
  client: ClientCredentials,
  as: Pick<AuthorizationServerMetadata, 'token_endpoint_auth_methods_supported'>,
): TokenEndpointAuthMethod {
  if (client.assertion !== undefined) return 'private_key_jwt';
  if (client.clientSecret === undefined) return 'none';
  const own = client.tokenEndpointAuthMethod;
  if (own !== undefined && own !== 'private_key_jwt') return own; // that one needs `assertion`
  const supported = as.token_endpoint_auth_methods_supported;
  if (supported === undefined || supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return supported.includes('none') ? 'none' : 'client_secret_basic';
}

/** A secret-based method (or `none`): what a registration without keys can confirm. */
function isAuthMethod(value: unknown): value is TokenEndpointAuthMethod {
  return value === 'client_secret_basic' || value === 'client_secret_post' || value === 'none';
}
