// The README's workload-identity example: quoted from the first import on; run by machine.examples.test.ts.
import { type FetchLike, withOAuth, workloadIdentity } from '@boomerang/auth';
import { workloadToken } from '@boomerang/auth/node';

/**
 * A pod with a projected service-account token whose audience is the MCP server's authorization server: no
 * client secret to store or rotate. The file is read again for every grant, since the kubelet rotates it.
 */
export function workloadFetch(tokenFile = '/var/run/secrets/tokens/mcp-token', fetch?: FetchLike): FetchLike {
  return withOAuth(fetch, {
    grant: workloadIdentity({ issuer: 'https://as.example', assertion: workloadToken({ file: tokenFile }) }),
  });
}
