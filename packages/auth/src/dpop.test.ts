import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, generateKeyPair, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { createDpopSession } from './dpop.js';
import { generateDpopKey } from './dpop-key.js';
import { clientCredentials } from './grants.js';
import { checkProof } from './test-support/dpop-check.js';
import { machineWorld } from './test-support/machine.js';
import { AS, world } from './test-support/world.js';

const key = await generateDpopKey();

/** The proofs the resource server received, and whether each was fresh (distinct jti). */
function proofsAt(w: ReturnType<typeof world>) {
  const proofs = w.rs.dpopSeen.filter((entry) => entry.proof !== null);
  return { proofs, jtis: new Set(proofs.map((p) => decodeJwt(p.proof as string).jti)) };
}

describe('generateDpopKey', () => {
  it('signs proofs the independent checker accepts, for every algorithm, with only the public key in jwk', async () => {
    for (const algorithm of ['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA'] as const) {
      const signer = await generateDpopKey({ algorithm });
      const proof = await signer.sign({ htm: 'POST', htu: 'https://as.example/token' });
      const header = decodeProtectedHeader(proof);
      expect(header).toMatchObject({ typ: 'dpop+jwt', alg: algorithm });
      expect(Object.keys(header.jwk ?? {}).sort()).toEqual(
        algorithm.startsWith('E') && algorithm !== 'EdDSA'
          ? ['crv', 'kty', 'x', 'y']
          : algorithm === 'EdDSA'
            ? ['crv', 'kty', 'x']
            : ['e', 'kty', 'n'],
      );
      const checked = await checkProof(proof, { htm: 'POST', htu: 'https://as.example/token' });
      expect(checked).toMatchObject({ ok: true, jkt: signer.thumbprint });
    }
  });

  it('keeps the private key unreadable: nothing secret in the object, and the key is not extractable', async () => {
    const pair = await generateKeyPair('ES256', { extractable: false });
    const signer = await generateDpopKey({ keyPair: pair });
    expect(JSON.stringify(signer)).not.toMatch(/"d"/);
    await expect(crypto.subtle.exportKey('jwk', pair.privateKey)).rejects.toThrow();
    const fresh = await generateDpopKey();
    expect(JSON.stringify(fresh)).not.toMatch(/"d"/);
    expect(Object.keys(fresh.publicJwk)).not.toContain('d');
  });

  it('computes the RFC 7638 thumbprint of the RFC 9449 example key (0ZcOCORZ…)', async () => {
    const rfcKey = {
      kty: 'EC',
      crv: 'P-256',
      x: 'l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs',
      y: '9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA',
    };
    const publicKey = (await importJWK(rfcKey, 'ES256')) as CryptoKey;
    const { privateKey } = await generateKeyPair('ES256');
    const signer = await generateDpopKey({ keyPair: { publicKey, privateKey } });
    expect(signer.thumbprint).toBe('0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I');
    expect(await calculateJwkThumbprint(rfcKey)).toBe(signer.thumbprint);
  });

  it('refuses symmetric algorithms and non-key pairs', async () => {
    await expect(generateDpopKey({ algorithm: 'HS256' as never })).rejects.toThrow(TypeError);
    await expect(generateDpopKey({ keyPair: {} as CryptoKeyPair })).rejects.toThrow(TypeError);
    expect(() => createDpopSession({} as never)).toThrow(TypeError);
  });
});

describe('createDpopSession', () => {
  it('binds method, URL without query or fragment, the token hash, and the latest nonce of that origin', async () => {
    const session = createDpopSession(key);
    const url = new URL('https://mcp.example/mcp?x=1#f');
    const first = await session.proof('get', url, 'token-1');
    expect(
      await checkProof(first, { htm: 'GET', htu: 'https://mcp.example/mcp', accessToken: 'token-1' }),
    ).toMatchObject({
      ok: true,
    });
    const nonced = new Response(null, { headers: { 'dpop-nonce': 'n-1' } });
    expect(session.learn(url, nonced)).toBe(true);
    expect(session.learn(url, nonced)).toBe(false); // not new
    expect(session.learn(url, new Response(null, { headers: { 'dpop-nonce': 'bad"nonce' } }))).toBe(false);
    expect(decodeJwt(await session.proof('POST', url)).nonce).toBe('n-1');
    expect(decodeJwt(await session.proof('POST', new URL('https://other.example/'))).nonce).toBeUndefined();
    expect(decodeJwt(first).jti).not.toBe(decodeJwt(await session.proof('get', url, 'token-1')).jti);
  });
});

describe('withOAuth with a DPoP key', () => {
  it('binds the token at the token endpoint and presents it with a fresh proof on every request', async () => {
    const w = world({ dpop: {} }, { dpop: {} }, { dpop: key });
    expect((await w.call()).status).toBe(200);
    expect((await w.call()).status).toBe(200);
    const [token] = w.as.log.token;
    expect(await checkProof(token?.dpop ?? null, { htm: 'POST', htu: `${AS}/token` })).toMatchObject({
      ok: true,
      jkt: key.thumbprint,
    });
    expect(w.rs.seen[0]?.extra).toEqual({ cnf: { jkt: key.thumbprint } });
    const { proofs, jtis } = proofsAt(w);
    expect(proofs.map((p) => p.scheme)).toEqual(['DPoP', 'DPoP']);
    expect(jtis.size).toBe(2);
    // Discovery followed the `DPoP resource_metadata="…"` challenge (there was no Bearer one).
    expect(w.net.requests[1]).toBe('GET https://mcp.example/.well-known/oauth-protected-resource/mcp');
  });

  it('retries the token request once with the authorization server nonce, and reuses it afterwards', async () => {
    let now = 1_000_000_000_000;
    const w = world(
      { dpop: { nonce: 'as-nonce' }, expiresIn: 60, refresh: false },
      { dpop: {} },
      { dpop: key, now: () => now },
    );
    expect((await w.call()).status).toBe(200);
    expect(w.as.log.token.map((t) => decodeJwt(t.dpop ?? '').nonce)).toEqual([undefined, 'as-nonce']);
    expect(new Set(w.as.log.token.map((t) => decodeJwt(t.dpop ?? '').jti)).size).toBe(2);
    now += 120_000; // expired: authorize again, with the nonce at once
    expect((await w.call()).status).toBe(200);
    expect(w.as.log.token.map((t) => decodeJwt(t.dpop ?? '').nonce)).toEqual([
      undefined,
      'as-nonce',
      'as-nonce',
    ]);
  });

  it('retries a resource request with the resource server nonce, without authorizing again', async () => {
    const w = world({ dpop: {} }, { dpop: { nonce: 'rs-nonce' } }, { dpop: key });
    expect((await w.call()).status).toBe(200);
    expect(w.as.log.authorize).toHaveLength(1);
    const nonces = w.rs.dpopSeen.map((p) => (p.proof === null ? null : decodeJwt(p.proof).nonce));
    expect(nonces).toEqual([undefined, 'rs-nonce']);
    expect((await w.call()).status).toBe(200); // the nonce is remembered: one request
    expect(w.rs.dpopSeen).toHaveLength(3);
  });

  it('gives up on a nonce the resource server never accepts, answering its 401', async () => {
    const w = world({ dpop: {} }, { dpop: { nonce: 'rs-nonce' } }, { dpop: key });
    const stubborn = w.net.routes['https://mcp.example'];
    w.net.routes['https://mcp.example'] = async (request) => {
      const response = await stubborn?.(request);
      if (request.headers.get('dpop') === null || response?.status !== 200) return response as Response;
      return new Response(null, {
        status: 401,
        headers: { 'www-authenticate': 'DPoP error="use_dpop_nonce"', 'dpop-nonce': `n-${Math.random()}` },
      });
    };
    const response = await w.call();
    expect(response.status).toBe(401);
    expect(w.as.log.authorize).toHaveLength(1);
  });

  it('uses Bearer when the authorization server ignores the proof, or lists other algorithms', async () => {
    for (const dpop of [{ unadvertised: true, algs: [] }, { algs: ['PS256'] }]) {
      const w = world({ dpop }, {}, { dpop: key });
      const ignoring = dpop.unadvertised === true;
      if (ignoring) {
        // An AS without DPoP support: it never looks at the header and issues Bearer tokens.
        const as = w.net.routes[AS];
        w.net.routes[AS] = async (request) => {
          const headers = new Headers(request.headers);
          headers.delete('dpop');
          return (as as (r: Request) => Promise<Response>)(new Request(request, { headers }));
        };
      }
      expect((await w.call()).status).toBe(200);
      expect(w.as.log.token[0]?.dpop ?? null).toBeNull();
      expect(w.rs.seen[0]?.extra).toBeUndefined();
    }
  });

  it('refuses a DPoP token type answered to a request without a proof', async () => {
    const w = world({ dpop: { alwaysDpop: true } });
    await expect(w.call()).rejects.toMatchObject({
      reason: 'token',
      message: expect.stringContaining('issued a token of type DPoP, not Bearer'),
    });
  });

  it('works with machine grants too', async () => {
    const grant = clientCredentials({ issuer: AS, clientId: 'svc', clientSecret: 'svc-secret' });
    const w = machineWorld({ clients: { svc: { secret: 'svc-secret' } }, dpop: { nonce: 'n' } }, grant, {
      rs: { dpop: {} },
      oauth: { dpop: key },
    });
    expect((await w.call()).status).toBe(200);
    expect(w.as.log.map((entry) => decodeJwt(entry.dpop ?? '').nonce)).toEqual([undefined, 'n']);
    expect(w.rs.seen[0]).toMatchObject({ clientId: 'svc', extra: { cnf: { jkt: key.thumbprint } } });
  });
});
