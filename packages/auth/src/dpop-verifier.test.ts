import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Server } from '@boomerang/server';
import { toNodeHandler } from '@boomerang/transport-http/node';
import { CompactSign, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { bearerAuth, type DpopRejection, protectedResourceMetadata } from './bearer.js';
import { createDpopSession } from './dpop.js';
import { generateDpopKey } from './dpop-key.js';
import { dpopVerifier, rotatingDpopNonce } from './dpop-verifier.js';
import { memoryReplayCache } from './replay-cache.js';

// RFC 9449 §5 Figure 2 (a token request) and §7.1 Figure 13 (a resource request), with the RFC's key, whose
// RFC 7638 thumbprint is given in §6.1.
const RFC_JKT = '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I';
const RFC_TOKEN_PROOF =
  'eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ.2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg';
const RFC_RESOURCE_PROOF =
  'eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiJlMWozVl9iS2ljOC1MQUVCIiwiaHRtIjoiR0VUIiwiaHR1IjoiaHR0cHM6Ly9yZXNvdXJjZS5leGFtcGxlLm9yZy9wcm90ZWN0ZWRyZXNvdXJjZSIsImlhdCI6MTU2MjI2MjYxOCwiYXRoIjoiZlVIeU8ycjJaM0RaNTNFc05yV0JiMHhXWG9hTnk1OUlpS0NBcWtzbVFFbyJ9.2oW9RP35yRqzhrtNP86L-Ey71EOptxRimPPToA1plemAgR6pxHF8y6-yqyVnmcw6Fy1dqd-jfxSYoMxhAJpLjA';
const RFC_ACCESS_TOKEN = 'Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU';
const RFC_NOW = 1562262620_000;

const request = (url: string, method: string, proof?: string) =>
  new Request(url, { method, headers: proof === undefined ? {} : { dpop: proof } });

describe('dpopVerifier: the RFC 9449 examples', () => {
  it('accepts Figure 2 at the token endpoint, once', async () => {
    const verifier = dpopVerifier({ now: () => RFC_NOW });
    const token = request('https://server.example.com/token', 'POST', RFC_TOKEN_PROOF);
    expect(await verifier.verify(token)).toEqual({ valid: true, jkt: RFC_JKT });
    expect(await verifier.verify(token.clone())).toEqual({ valid: false, reason: 'replay' });
  });

  it('accepts Figure 13 with its access token and key, and nothing else', async () => {
    const at = (url = 'https://resource.example.org/protectedresource', method = 'GET') =>
      request(url, method, RFC_RESOURCE_PROOF);
    const expected = { accessToken: RFC_ACCESS_TOKEN, jkt: RFC_JKT };
    const cases: [Request, object, DpopRejection | undefined][] = [
      [at(), { ...expected, accessToken: 'another token' }, 'ath'],
      [at(), { ...expected, jkt: 'another-key' }, 'key-mismatch'],
      [at(undefined, 'POST'), expected, 'htm'],
      [at('https://resource.example.org/other'), expected, 'htu'],
      [at('https://resource.example.org/protectedresource?q=1'), expected, undefined], // query ignored
    ];
    for (const [req, want, reason] of cases) {
      const outcome = await dpopVerifier({ now: () => RFC_NOW }).verify(req, want);
      expect(outcome).toEqual(
        reason === undefined ? { valid: true, jkt: RFC_JKT } : { valid: false, reason },
      );
    }
    const late = dpopVerifier({ now: () => RFC_NOW + 120_000 });
    expect(await late.verify(at(), expected)).toEqual({ valid: false, reason: 'iat' });
  });
});

const URL_ = 'https://mcp.example/mcp';
const { privateKey, publicKey } = await generateKeyPair('ES256');
const jwk = await exportJWK(publicKey);
const other = await generateKeyPair('ES256');
const privateJwk = await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey);

describe('dpopVerifier: hostile proofs', () => {
  const now = Math.floor(Date.now() / 1000);
  const claims = () => ({ jti: crypto.randomUUID(), htm: 'POST', htu: URL_, iat: now });
  const sign = (
    header: Record<string, unknown>,
    payload: Record<string, unknown>,
    key: CryptoKey = privateKey,
  ) => new SignJWT(payload).setProtectedHeader({ alg: 'ES256', ...header }).sign(key);
  const good = (payload: Record<string, unknown> = {}) =>
    sign({ typ: 'dpop+jwt', jwk }, { ...claims(), ...payload });
  const hmacKey = new TextEncoder().encode('a'.repeat(32));

  it.each<[string, () => Promise<string | undefined>, DpopRejection]>([
    ['no header', async () => undefined, 'missing'],
    ['two proofs', async () => `${await good()}, ${await good()}`, 'multiple'],
    ['not a JWS', async () => 'abc.def', 'malformed'],
    ['typ JWT', () => sign({ typ: 'JWT', jwk }, claims()), 'malformed'],
    ['no jwk', () => sign({ typ: 'dpop+jwt' }, claims()), 'malformed'],
    ['a private key in jwk', () => sign({ typ: 'dpop+jwt', jwk: privateJwk as JWK }, claims()), 'malformed'],
    ['jwk of another key', () => sign({ typ: 'dpop+jwt', jwk }, claims(), other.privateKey), 'signature'],
    [
      'HS256 with a symmetric jwk',
      () =>
        new CompactSign(new TextEncoder().encode(JSON.stringify(claims())))
          .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: { kty: 'oct', k: 'YWFh' } as JWK })
          .sign(hmacKey),
      'algorithm',
    ],
    ['htm GET', () => good({ htm: 'GET' }), 'htm'],
    ['lower-case htm', () => good({ htm: 'post' }), 'htm'],
    ['another host', () => good({ htu: 'https://evil.example/mcp' }), 'htu'],
    ['http scheme', () => good({ htu: 'http://mcp.example/mcp' }), 'htu'],
    ['relative htu', () => good({ htu: '/mcp' }), 'htu'],
    ['iat too old', () => good({ iat: now - 61 }), 'iat'],
    ['iat in the future', () => good({ iat: now + 60 }), 'iat'],
    ['no iat', () => good({ iat: undefined }), 'iat'],
    ['no jti', () => good({ jti: undefined }), 'malformed'],
    ['short jti', () => good({ jti: 'abc' }), 'malformed'],
    ['no ath for a token', () => good(), 'ath'],
  ])('%s → %s', async (_name, make, reason) => {
    const expectToken = reason === 'ath';
    const proof = await make();
    const outcome = await dpopVerifier().verify(
      request(URL_, 'POST', proof),
      expectToken ? { accessToken: 'at-1' } : {},
    );
    expect(outcome).toEqual({ valid: false, reason });
  });

  it('accepts a good proof for the token it hashes, once per jti and key', async () => {
    const verifier = dpopVerifier();
    const ath = createHash('sha256').update('at-1').digest('base64url');
    const proof = await good({ ath });
    const first = await verifier.verify(request(URL_, 'POST', proof), { accessToken: 'at-1' });
    expect(first).toMatchObject({ valid: true });
    expect(await verifier.verify(request(URL_, 'POST', proof), { accessToken: 'at-1' })).toEqual({
      valid: false,
      reason: 'replay',
    });
  });

  it('refuses algorithms outside its list, and a list with symmetric ones', async () => {
    const ps = await generateKeyPair('PS256');
    const proof = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'PS256', typ: 'dpop+jwt', jwk: await exportJWK(ps.publicKey) })
      .sign(ps.privateKey);
    expect(await dpopVerifier({ algorithms: ['ES256'] }).verify(request(URL_, 'POST', proof))).toEqual({
      valid: false,
      reason: 'algorithm',
    });
    expect(() => dpopVerifier({ algorithms: ['HS256'] })).toThrow(TypeError);
    expect(() => dpopVerifier({ algorithms: [] })).toThrow(TypeError);
    expect(() => dpopVerifier({ maxAgeSeconds: -1 })).toThrow(RangeError);
  });

  it('demands the current nonce, handing it out with the refusal', async () => {
    const nonce = rotatingDpopNonce();
    const rejected: DpopRejection[] = [];
    const verifier = dpopVerifier({ nonce, onReject: (reason) => rejected.push(reason) });
    const missing = await verifier.verify(request(URL_, 'POST', await good()));
    expect(missing).toEqual({ valid: false, reason: 'nonce', nonce: nonce.current() });
    expect(await verifier.verify(request(URL_, 'POST', await good({ nonce: 'stale' })))).toMatchObject({
      reason: 'nonce',
    });
    expect(
      await verifier.verify(request(URL_, 'POST', await good({ nonce: nonce.current() }))),
    ).toMatchObject({
      valid: true,
    });
    expect(rejected).toEqual(['nonce', 'nonce']);
  });

  it('checks htu against the public URL when told, behind a proxy', async () => {
    const verifier = dpopVerifier({ url: () => URL_ });
    const inside = request('http://10.0.0.7:8080/internal', 'POST', await good());
    expect(await verifier.verify(inside)).toMatchObject({ valid: true });
  });
});

/** A proof of the test key for `POST htu`, issued at `iat` (epoch seconds). */
const proofAt = (htu: string, iat: number, jti: string = crypto.randomUUID()) =>
  new SignJWT({ jti, htm: 'POST', htu, iat })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
    .sign(privateKey);

describe('dpopVerifier: the URL htu must name', () => {
  const seconds = () => Math.floor(Date.now() / 1000);
  const verify = async (
    verifier: ReturnType<typeof dpopVerifier>,
    url: string,
    htu: string,
    options: { host?: string; origin?: string } = {},
  ) => {
    const headers: Record<string, string> = { dpop: await proofAt(htu, seconds()) };
    if (options.host !== undefined) headers.host = options.host;
    const outcome = await verifier.verify(
      new Request(url, { method: 'POST', headers }),
      options.origin === undefined ? {} : { origin: options.origin },
    );
    return outcome.valid ? 'valid' : outcome.reason;
  };

  it('with origins: one of them and the request path, whatever host the request names', async () => {
    const verifier = dpopVerifier({ origins: ['https://mcp.example', new URL('https://mcp.example:8443')] });
    // An absolute-form target under a node adapter: request.url names the attacker's host.
    expect(await verify(verifier, 'http://evil.example/mcp', 'http://evil.example/mcp')).toBe('htu');
    expect(await verify(verifier, 'https://evil.example/mcp', 'https://evil.example/mcp')).toBe('htu');
    // Behind a proxy that terminates TLS: the request arrives on plain http at an inner address.
    expect(await verify(verifier, 'http://10.0.0.7:8080/mcp', 'https://mcp.example/mcp')).toBe('valid');
    expect(await verify(verifier, 'http://10.0.0.7:8080/mcp', 'https://MCP.example:443/mcp')).toBe('valid');
    expect(await verify(verifier, 'http://10.0.0.7:8080/mcp', 'https://mcp.example:8443/mcp')).toBe('valid');
    expect(await verify(verifier, 'http://10.0.0.7:8080/mcp', 'https://mcp.example/other')).toBe('htu');
    expect(await verify(verifier, 'http://10.0.0.7:8080/mcp', 'http://mcp.example/mcp')).toBe('htu');
    // A path that looks like a host stays a path.
    expect(await verify(verifier, 'http://h//evil.example/mcp', 'https://evil.example/mcp')).toBe('htu');
    expect(
      await verify(verifier, 'http://h//evil.example/mcp', 'https://mcp.example//evil.example/mcp'),
    ).toBe('valid');
  });

  it("without origins: the origin bearerAuth passes (the resource's), else the request URL if Host agrees", async () => {
    const verifier = dpopVerifier();
    const origin = 'https://mcp.example';
    expect(await verify(verifier, 'http://evil.example/mcp', 'http://evil.example/mcp', { origin })).toBe(
      'htu',
    );
    expect(await verify(verifier, 'http://10.0.0.7/mcp', 'https://mcp.example/mcp', { origin })).toBe(
      'valid',
    );
    expect(
      await verify(verifier, 'https://mcp.example/mcp', 'https://mcp.example/mcp', { origin: '::' }),
    ).toBe('htu');
    // No origin at all (a token endpoint): the request's URL, unless an absolute-form target contradicts Host.
    const host = 'mcp.example';
    expect(await verify(verifier, 'http://evil.example/mcp', 'http://evil.example/mcp', { host })).toBe(
      'htu',
    );
    expect(await verify(verifier, 'http://mcp.example/mcp', 'http://mcp.example/mcp', { host })).toBe(
      'valid',
    );
    expect(
      await verify(verifier, 'http://mcp.example/mcp', 'http://mcp.example/mcp', { host: `${host}:80` }),
    ).toBe('valid');
    expect(await verify(verifier, 'http://mcp.example/mcp', 'http://mcp.example/mcp')).toBe('valid'); // no Host
    // `origins` wins over the origin passed by bearerAuth.
    const own = dpopVerifier({ origins: ['https://public.example'] });
    expect(await verify(own, 'http://i/mcp', 'https://public.example/mcp', { origin })).toBe('valid');
    expect(await verify(own, 'http://i/mcp', 'https://mcp.example/mcp', { origin })).toBe('htu');
  });

  it('refuses origins that are not origins, and origins with url', () => {
    for (const bad of [
      'https://mcp.example/mcp',
      'ftp://mcp.example',
      'https://u@mcp.example',
      'mcp.example',
    ]) {
      expect(() => dpopVerifier({ origins: [bad] }), bad).toThrow(TypeError);
    }
    expect(() => dpopVerifier({ origins: 'https://mcp.example' as never })).toThrow(
      new TypeError('"origins" expected an array of origins such as "https://mcp.example.com", got string'),
    );
    expect(() => dpopVerifier({ origins: [] })).toThrow(RangeError);
    expect(() => dpopVerifier({ origins: ['https://mcp.example'], url: () => URL_ })).toThrow(TypeError);
  });
});

describe('dpopVerifier: a full replay cache', () => {
  it("refuses Alice's captured proof after Mallory's flood, and her own once the window shrinks", async () => {
    let clock = Math.floor(Date.now() / 1000) * 1000;
    const rejected: DpopRejection[] = [];
    const verifier = dpopVerifier({
      now: () => clock,
      replay: memoryReplayCache({ max: 20, maxPerOwner: 100, now: () => clock }), // one key: test the global bound
      onReject: (reason) => rejected.push(reason),
    });
    const post = (proof: string) => verifier.verify(request(URL_, 'POST', proof));
    const alice = await proofAt(URL_, clock / 1000);
    expect(await post(alice)).toMatchObject({ valid: true });
    // Mallory's valid proofs fill the cache in the same second: the overflow is refused, Alice's proof is kept.
    const outcomes = [];
    for (let i = 0; i < 25; i++) outcomes.push(await post(await proofAt(URL_, clock / 1000)));
    expect(outcomes.filter((o) => o.valid)).toHaveLength(19);
    expect(await post(alice)).toEqual({ valid: false, reason: 'replay' });
    // A second later her fresh proofs make room by dropping the oldest second: Alice's proof is then too old.
    clock += 1000;
    expect(await post(await proofAt(URL_, clock / 1000))).toMatchObject({ valid: true });
    expect(await post(alice)).toEqual({ valid: false, reason: 'window' });
    expect(await post(await proofAt(URL_, clock / 1000 - 1))).toEqual({ valid: false, reason: 'window' });
    expect(new Set(rejected)).toEqual(new Set(['window', 'replay']));
  });
});

describe('rotatingDpopNonce', () => {
  it('rotates every period and accepts the previous nonce for one more period', () => {
    let now = 0;
    const source = rotatingDpopNonce({ periodSeconds: 10, now: () => now });
    const first = source.current();
    expect(source.current()).toBe(first);
    expect(source.accepts(first)).toBe(true);
    expect(source.accepts(undefined)).toBe(false);
    now = 10_000;
    const second = source.current();
    expect(second).not.toBe(first);
    expect(source.accepts(first)).toBe(true);
    now = 20_000;
    expect(source.accepts(first)).toBe(false);
    expect(source.accepts(second)).toBe(true);
    now = 60_000;
    expect(source.accepts(second)).toBe(false); // skipped periods: nothing old survives
    expect(() => rotatingDpopNonce({ periodSeconds: 0 })).toThrow(RangeError);
  });
});

/** Writes `head` (request line and headers, CRLF-separated, without the blank line) and `body` on a raw socket. */
async function rawHttp(port: number, head: string, body: string) {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  // `write`, not `end`: a half-closed socket would have the server drop the answer; `connection: close` ends it.
  socket.write(`${head}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    answer += chunk;
  });
  await once(socket, 'close');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
  const challenge = /^www-authenticate: (.*)$/im.exec(answer)?.[1]?.trim();
  return { status, challenge };
}

describe('dpopVerifier over node:http (the node handler Express mounts): absolute-form targets', () => {
  const LIST = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/list',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });

  /** An MCP server behind bearerAuth + dpopVerifier on 127.0.0.1, its token bound to a fresh DPoP key. */
  async function serve(resource: (port: number) => string, nodeOptions: { allowedHosts?: string[] } = {}) {
    const key = await generateDpopKey();
    const server = new Server({ name: 'notes', version: '1.0.0' }, { onListTools: () => ({ tools: [] }) });
    const http = createServer();
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    const { port } = http.address() as AddressInfo;
    const prm = protectedResourceMetadata({
      resource: resource(port),
      authorization_servers: ['https://as.example'],
    });
    const rejected: DpopRejection[] = [];
    const authenticate = bearerAuth({
      resourceMetadata: prm.url,
      dpop: dpopVerifier({ onReject: (reason) => rejected.push(reason) }),
      dpopRequired: true,
      verify: (token) =>
        token === 'at-1' ? { scopes: [], extra: { cnf: { jkt: key.thumbprint } } } : undefined,
    });
    http.on('request', toNodeHandler(server, { ...nodeOptions, authenticate }));
    const session = createDpopSession(key);
    const post = async (target: string, host: string, htu: string) => {
      const proof = await session.proof('POST', new URL(htu), 'at-1');
      const head = [
        `POST ${target} HTTP/1.1`,
        `host: ${host}`,
        'authorization: DPoP at-1',
        `dpop: ${proof}`,
        'content-type: application/json',
        'accept: application/json, text/event-stream',
        'mcp-protocol-version: 2026-07-28',
        'mcp-method: tools/list',
      ].join('\r\n');
      return rawHttp(port, head, LIST);
    };
    const close = () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    return { port, post, rejected, close };
  }

  it('refuses a proof for the host an absolute-form target names, on a loopback server', async () => {
    const rs = await serve((port) => `http://127.0.0.1:${port}/mcp`);
    try {
      const here = `127.0.0.1:${rs.port}`;
      // Mallory's proof, made for evil.example, sent with an absolute-form target naming it: the node handler refuses
      // a target whose host is not the Host header's (400) before any authentication; the verifier never sees it.
      const forged = await rs.post('http://evil.example/mcp', here, 'http://evil.example/mcp');
      expect(forged.status).toBe(400);
      // The same in capitals, and on another port of this host.
      expect((await rs.post('HTTP://EVIL.EXAMPLE/mcp', here, 'http://evil.example/mcp')).status).toBe(400);
      expect((await rs.post('http://127.0.0.1:1/mcp', here, 'http://127.0.0.1:1/mcp')).status).toBe(400);
      expect(rs.rejected).toEqual([]);
      // A path that reads as a host (`//evil…`) stays a path on this host: the proof for evil.example fails htu.
      expect((await rs.post('//evil.example/mcp', here, 'http://evil.example/mcp')).status).toBe(401);
      expect(rs.rejected).toEqual(['htu']);
      // The real thing, in origin form and in absolute form.
      expect((await rs.post('/mcp', here, `http://${here}/mcp`)).status).toBe(200);
      expect((await rs.post(`http://${here}/mcp`, here, `http://${here}/mcp`)).status).toBe(200);
    } finally {
      await rs.close();
    }
  });

  it('refuses it behind allowedHosts and a TLS proxy too, where the public https URL is what htu names', async () => {
    const rs = await serve(() => 'https://mcp.example/mcp', { allowedHosts: ['mcp.example'] });
    try {
      const forged = await rs.post('http://evil.example/mcp', 'mcp.example', 'http://evil.example/mcp');
      expect([forged.status, rs.rejected]).toEqual([400, []]);
      const https = await rs.post('https://evil.example/mcp', 'mcp.example', 'https://evil.example/mcp');
      expect([https.status, rs.rejected]).toEqual([400, []]);
      // Behind the proxy, a proof naming another host than the public URL fails htu.
      const other = await rs.post('/mcp', 'mcp.example', 'https://evil.example/mcp');
      expect([other.status, rs.rejected]).toEqual([401, ['htu']]);
      // A Host header of the attacker's is the transport's to refuse (allowedHosts): 403 before DPoP.
      expect((await rs.post('/mcp', 'evil.example', 'https://evil.example/mcp')).status).toBe(403);
      // The proxy forwards plain http for https://mcp.example/mcp: the proof names the public URL, and passes.
      expect((await rs.post('/mcp', 'mcp.example', 'https://mcp.example/mcp')).status).toBe(200);
    } finally {
      await rs.close();
    }
  });
});
