import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import * as jwt from './jwt.js';
import * as node from './node.js';

describe('@boomerang/auth', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'OAuthError',
      'TokenTypes',
      'authMethodFor',
      'authorizationServerMetadataUrls',
      'authorizeWithCode',
      'bearerAuth',
      'clientCredentials',
      'createDpopSession',
      'createPkce',
      'discoverAuthorizationServer',
      'discoverProtectedResource',
      'enterpriseManaged',
      'exchangeToken',
      'formatBearerChallenge',
      'formatDpopChallenge',
      'headlessRedirect',
      'memoryStore',
      'parseBearerChallenge',
      'parseDpopChallenge',
      'protectedResourceMetadata',
      'requestToken',
      'resolveClient',
      'resourceMatches',
      'resourceOf',
      'validateAuthorizationResponse',
      'withOAuth',
      'workloadIdentity',
    ]);
    expect(Object.keys(jwt).sort()).toEqual([
      'DPOP_ALGORITHMS',
      'dpopVerifier',
      'generateDpopKey',
      'jwtVerifier',
      'memoryReplayCache',
      'privateKeyJwt',
      'rotatingDpopNonce',
    ]);
    expect(Object.keys(node).sort()).toEqual(['loopbackRedirect', 'openBrowser', 'workloadToken']);
  });
});
