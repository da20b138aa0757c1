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
      'createPkce',
      'discoverAuthorizationServer',
      'discoverProtectedResource',
      'enterpriseManaged',
      'exchangeToken',
      'formatBearerChallenge',
      'headlessRedirect',
      'memoryStore',
      'parseBearerChallenge',
      'protectedResourceMetadata',
      'requestToken',
      'resolveClient',
      'resourceMatches',
      'resourceOf',
      'validateAuthorizationResponse',
      'withOAuth',
      'workloadIdentity',
    ]);
    expect(Object.keys(jwt).sort()).toEqual(['jwtVerifier', 'privateKeyJwt']);
    expect(Object.keys(node).sort()).toEqual(['loopbackRedirect', 'openBrowser', 'workloadToken']);
  });
});
