// How the conformance client signs in: `@boomerang/auth`'s `withOAuth` around the transport's fetch, headless
// (the referee's authorization servers redirect at once), with the identity the referee expects; the extension
// scenarios (machine grants, DPoP) pick their grant and key by scenario name.
import {
  type ClientCredentials,
  clientCredentials,
  discoverProtectedResource,
  enterpriseManaged,
  type FetchLike,
  headlessRedirect,
  type MachineGrant,
  type OAuthOptions,
  type PreRegisteredClients,
  withOAuth,
  workloadIdentity,
} from '@boomerang/auth';
import { generateDpopKey, privateKeyJwt } from '@boomerang/auth/jwt';

/** The redirect URI registered and sent: never listened on, `headlessRedirect` reads the `Location` instead. */
export const REDIRECT_URI = 'http://localhost:3000/callback';

/** This client's Client ID Metadata Document URL, used where the AS supports CIMD (the referee never fetches it). */
export const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/**
 * Pre-registered credentials from `MCP_CONFORMANCE_CONTEXT` (`auth/pre-registration`:
 * `{client_id, client_secret?, issuer}`), keyed by the issuer they belong to; `undefined` when it has none.
 */
export function preRegisteredFrom(
  context: Readonly<Record<string, unknown>>,
): PreRegisteredClients | undefined {
  const { client_id: clientId, client_secret: clientSecret, issuer } = context;
  if (typeof clientId !== 'string' || clientId === '' || typeof issuer !== 'string' || issuer === '')
    return undefined;
  const client: ClientCredentials = {
    clientId,
    ...(typeof clientSecret === 'string' && clientSecret !== '' && { clientSecret }),
  };
  return { [issuer]: client };
}

/** What {@link oauthFetch} needs besides the context. */
export interface OAuthFetchOptions {
  /** `MCP_CONFORMANCE_SCENARIO`: the machine-grant and DPoP scenarios sign in their own way. */
  readonly scenario?: string | undefined;
  /** The fetch to wrap (default `globalThis.fetch`); the authorization servers are reached through it too. */
  readonly fetch?: FetchLike | undefined;
  /** Progress notes from `withOAuth` (URLs, statuses, reasons; never a secret). */
  readonly onEvent?: ((message: string) => void) | undefined;
  /** The MCP server's URL: the machine-grant scenarios read their issuer from its metadata ({@link refereeIssuer}). */
  readonly serverUrl?: URL | string | undefined;
}

/**
 * A fetch for `StreamableHttpClientTransport` that authorizes on a 401 (or a 403 `insufficient_scope`) without a
 * browser: discovery, client identity (pre-registered from the context, else CIMD, else DCR), PKCE, `resource`,
 * `iss` checks, step-up; other responses pass through untouched, so it serves every scenario. The extension
 * scenarios get what they test: a machine grant ({@link machineGrantFor}), or DPoP-bound tokens (`auth/dpop*`).
 */
export async function oauthFetch(
  context: Readonly<Record<string, unknown>> = {},
  options: OAuthFetchOptions = {},
): Promise<FetchLike> {
  const onEvent = options.onEvent === undefined ? {} : { onEvent: options.onEvent };
  if (options.scenario !== undefined && MACHINE_SCENARIOS.has(options.scenario)) {
    if (options.serverUrl === undefined) throw new TypeError(`${options.scenario} needs the server URL`);
    const issuer = await refereeIssuer(options.serverUrl, options.fetch);
    const grant = machineGrantFor(options.scenario, context, issuer);
    if (grant !== undefined) return withOAuth(options.fetch, { grant, ...onEvent });
  }
  const dpop = options.scenario?.startsWith('auth/dpop') ? { dpop: await generateDpopKey() } : {};
  const preRegistered = preRegisteredFrom(context);
  const settings: OAuthOptions = {
    redirectUri: REDIRECT_URI,
    authorize: headlessRedirect(options.fetch),
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientName: 'boomerang-everything-client',
    ...(preRegistered !== undefined && { preRegistered }),
    ...onEvent,
    ...dpop,
  };
  return withOAuth(options.fetch, settings);
}

/** The extension scenarios that sign in with a machine grant ({@link machineGrantFor}). */
const MACHINE_SCENARIOS: ReadonlySet<string> = new Set([
  'auth/client-credentials-basic',
  'auth/client-credentials-jwt',
  'auth/wif-jwt-bearer',
  'auth/enterprise-managed-authorization',
]);

/**
 * The authorization server the referee's MCP server names in its Protected Resource Metadata. A machine grant is
 * bound to an issuer its owner configures (a service account knows where it is registered), and `withOAuth` sends
 * its secret nowhere else. The referee's context does not carry that issuer, so this test fixture, which trusts the
 * referee, reads it from the metadata first. Outside a test harness that would hand the choice back to the MCP
 * server, which is exactly what the binding withholds: configure the issuer instead.
 */
export async function refereeIssuer(serverUrl: URL | string, fetch?: FetchLike): Promise<string> {
  const base: FetchLike = fetch ?? ((input, init) => globalThis.fetch(input, init));
  const { metadata } = await discoverProtectedResource(serverUrl, base);
  return metadata.authorization_servers[0] as string;
}

/**
 * The machine grant of an extension scenario, bound to `issuer`, from what `MCP_CONFORMANCE_CONTEXT` carries;
 * `undefined` for the others (they use the interactive flow). A missing context field throws, naming it (never a
 * value).
 * - `auth/client-credentials-basic`: `{client_id, client_secret}` → client credentials, `client_secret_basic`;
 * - `auth/client-credentials-jwt`: `{client_id, private_key_pem, signing_algorithm}` → `private_key_jwt`;
 * - `auth/wif-jwt-bearer`: `{client_id, valid_jwt}` → the JWT bearer grant with the workload token;
 * - `auth/enterprise-managed-authorization`: `{client_id, client_secret, idp_client_id, idp_id_token,
 *   idp_issuer, idp_token_endpoint}` → ID token → ID-JAG at the IdP → access token.
 */
export function machineGrantFor(
  scenario: string | undefined,
  context: Readonly<Record<string, unknown>>,
  issuer: string,
): MachineGrant | undefined {
  const field = (name: string): string => {
    const value = context[name];
    if (typeof value !== 'string' || value === '') {
      throw new Error(`MCP_CONFORMANCE_CONTEXT lacks "${name}" for ${scenario}`);
    }
    return value;
  };
  switch (scenario) {
    case 'auth/client-credentials-basic':
      return clientCredentials({
        issuer,
        clientId: field('client_id'),
        clientSecret: field('client_secret'),
      });
    case 'auth/client-credentials-jwt': {
      const algorithm = typeof context.signing_algorithm === 'string' ? context.signing_algorithm : 'ES256';
      const assertion = privateKeyJwt({ privateKey: field('private_key_pem'), algorithm });
      return clientCredentials({ issuer, clientId: field('client_id'), assertion });
    }
    case 'auth/wif-jwt-bearer':
      return workloadIdentity({
        issuer,
        assertion: field('valid_jwt'),
        client: { clientId: field('client_id') },
      });
    case 'auth/enterprise-managed-authorization':
      return enterpriseManaged({
        issuer,
        idToken: field('idp_id_token'),
        identityProvider: {
          issuer: field('idp_issuer'),
          tokenEndpoint: field('idp_token_endpoint'),
          client: { clientId: field('idp_client_id') },
        },
        client: { clientId: field('client_id'), clientSecret: field('client_secret') },
      });
    default:
      return undefined;
  }
}
