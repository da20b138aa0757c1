// The README's private_key_jwt + DPoP example: quoted from the first import on; run by machine.examples.test.ts.
import { clientCredentials, type FetchLike, withOAuth } from '@boomerang/auth';
import { generateDpopKey, privateKeyJwt } from '@boomerang/auth/jwt';

/**
 * No shared secret at all: the service proves who it is with a key the authorization server knows the public
 * half of (RFC 7523), and its tokens are bound to a second key that never leaves this process (DPoP).
 */
export async function keyBoundFetch(privateKeyPem: string, fetch?: FetchLike): Promise<FetchLike> {
  return withOAuth(fetch, {
    grant: clientCredentials({
      issuer: 'https://as.example', // the only authorization server this key ever signs for
      clientId: 'reports-bot',
      assertion: privateKeyJwt({ privateKey: privateKeyPem, algorithm: 'ES256' }),
    }),
    dpop: await generateDpopKey(), // non-extractable: it signs proofs, nothing can read it out
  });
}
