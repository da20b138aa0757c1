import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { privateKeyJwt } from './client-assertion.js';
import { OAuthError } from './errors.js';
import { clientCredentials, enterpriseManaged, type MachineGrant, workloadIdentity } from './grants.js';
import {
  identityProvider,
  machineAuthorizationServer,
  machineWorld,
  signJwt,
} from './test-support/machine.js';
import { mockResource, network, post } from './test-support/mock.js';
import { withOAuth } from './with-oauth.js';
import { workloadToken } from './workload-token.js';

const AS = 'https://as.example';
const MCP = 'https://mcp.example/mcp';
const clientKey = await generateKeyPair('ES256');
const platformKey = await generateKeyPair('ES256');
const PLATFORM = 'https://platform.example';
const clients = { svc: { secret: 'svc-secret' }, 'svc-jwt': { publicKey: clientKey.publicKey } };

describe('clientCredentials', () => {
  it('discovers (no authorization endpoint needed), gets a token with client_secret_basic, and reuses it', async () => {
    const w = machineWorld(
      { clients },
      clientCredentials({ issuer: AS, clientId: 'svc', clientSecret: 'svc-secret' }),
    );
    expect((await w.call()).status).toBe(200);
    expect(w.net.requests).toEqual([
      `POST ${MCP}`,
      'GET https://mcp.example/.well-known/oauth-protected-resource/mcp',
      `GET ${AS}/.well-known/oauth-authorization-server`,
      `POST ${AS}/token`,
      `POST ${MCP}`,
    ]);
    const [request] = w.as.log;
    expect(Object.fromEntries(request?.body ?? [])).toEqual({
      grant_type: 'client_credentials',
      resource: MCP,
    });
    expect(request?.authorization).toMatch(/^Basic /);
    expect(w.rs.seen[0]).toMatchObject({ clientId: 'svc', subject: 'svc', issuer: AS });
    expect((await w.call()).status).toBe(200);
    expect(w.net.requests.slice(5)).toEqual([`POST ${MCP}`]);
  });

  it('uses client_secret_post when the authorization server lists only that', async () => {
    const grant = clientCredentials({ issuer: AS, clientId: 'svc', clientSecret: 'svc-secret' });
    const w = machineWorld({ clients, authMethods: ['client_secret_post'] }, grant);
    expect((await w.call()).status).toBe(200);
    expect(w.as.log[0]?.authorization).toBeNull();
    expect(w.as.log[0]?.body.get('client_secret')).toBe('svc-secret');
  });

  it('private_key_jwt: the authorization server verifies the assertion with the registered public key', async () => {
    const assertion = privateKeyJwt({ privateKey: clientKey.privateKey, algorithm: 'ES256' });
    const w = machineWorld({ clients }, clientCredentials({ issuer: AS, clientId: 'svc-jwt', assertion }));
    expect((await w.call()).status).toBe(200);
    expect(w.rs.seen[0]).toMatchObject({ clientId: 'svc-jwt' });
    expect(w.as.log[0]?.body.has('client_secret')).toBe(false);
  });

  it('a forged or expired assertion, or a wrong secret, is refused once, with no secret in the error', async () => {
    const forged = privateKeyJwt({ privateKey: platformKey.privateKey, algorithm: 'ES256' }); // not the client's key
    const expired = privateKeyJwt({
      privateKey: clientKey.privateKey,
      algorithm: 'ES256',
      now: () => Date.now() - 3_600_000,
    });
    for (const client of [
      { clientId: 'svc-jwt', assertion: forged },
      { clientId: 'svc-jwt', assertion: expired },
      { clientId: 'svc', clientSecret: 'wrong-secret' },
    ]) {
      const w = machineWorld({ clients }, clientCredentials({ issuer: AS, ...client }));
      const error = (await w.call().catch((e: unknown) => e)) as OAuthError;
      expect(error).toBeInstanceOf(OAuthError);
      expect(error.reason).toBe('token');
      expect(error.message).toBe(
        `${AS}/token refused the client_credentials grant: HTTP 401 (invalid_client)`,
      );
      expect(w.as.log).toHaveLength(1); // not retried
      expect([...w.events, error.message].join('\n')).not.toMatch(/wrong-secret|eyJ/);
    }
  });

  it('asks the challenge scope, steps up with the union on 403 insufficient_scope', async () => {
    const w = machineWorld(
      { clients },
      clientCredentials({ issuer: AS, clientId: 'svc', clientSecret: 'svc-secret' }),
      {
        rs: { requiredScopes: (r) => (r.headers.get('x-write') ? ['read', 'write'] : ['read']) },
      },
    );
    expect((await w.call()).status).toBe(200);
    const write = await w.fetch(new URL(MCP), { method: 'POST', headers: { 'x-write': '1' }, body: '{}' });
    expect(write.status).toBe(200);
    expect(w.as.log.map((r) => r.body.get('scope'))).toEqual(['read', 'read write']);
  });

  it('runs the grant again when the token expires (no refresh token)', async () => {
    let now = 1_000_000_000_000;
    const w = machineWorld(
      { clients, expiresIn: 60 },
      clientCredentials({ issuer: AS, clientId: 'svc', clientSecret: 'svc-secret' }),
      {
        oauth: { now: () => now },
      },
    );
    await w.call();
    now += 120_000;
    expect((await w.call()).status).toBe(200);
    expect(w.as.log.map((r) => r.body.get('grant_type'))).toEqual([
      'client_credentials',
      'client_credentials',
    ]);
  });

  it('refuses arguments that cannot work', () => {
    expect(() => clientCredentials({ issuer: AS, clientId: 'public' })).toThrow(TypeError);
    expect(() => clientCredentials({ issuer: AS, clientId: '', clientSecret: 's' })).toThrow(TypeError);
    expect(() => clientCredentials(undefined as never)).toThrow(TypeError);
    expect(() => withOAuth(undefined, { grant: {} as MachineGrant })).toThrow(TypeError);
    const grant = clientCredentials({ issuer: AS, clientId: 'svc', clientSecret: 's' });
    expect(() => withOAuth(undefined, { grant, maxAuthorizations: 0 })).toThrow(RangeError);
  });
});

describe('workloadIdentity', () => {
  const assertionIssuers = { [PLATFORM]: platformKey.publicKey };
  const workloadJwt = (aud = AS, expiresIn = 300) =>
    signJwt(platformKey.privateKey, {
      iss: PLATFORM,
      aud,
      sub: 'system:serviceaccount:ci:runner',
      expiresIn,
    });

  it('sends the platform JWT as an RFC 7523 assertion, without client authentication by default', async () => {
    const token = await workloadJwt();
    const w = machineWorld({ assertionIssuers }, workloadIdentity({ issuer: AS, assertion: token }));
    expect((await w.call()).status).toBe(200);
    expect(Object.fromEntries(w.as.log[0]?.body ?? [])).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: token,
      resource: MCP,
    });
    expect(w.as.log[0]?.authorization).toBeNull();
    expect(w.rs.seen[0]).toMatchObject({ subject: 'system:serviceaccount:ci:runner' });
  });

  it('reads a rotated token file afresh for every grant', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'boomerang-wif-'));
    try {
      const file = join(dir, 'token');
      await writeFile(file, `${await workloadJwt()}\n`);
      let now = 1_000_000_000_000;
      const grant = workloadIdentity({
        issuer: AS,
        assertion: workloadToken({ file }),
        client: { clientId: 'wl' },
      });
      const w = machineWorld({ assertionIssuers, expiresIn: 60 }, grant, { oauth: { now: () => now } });
      await w.call();
      const rotated = await workloadJwt();
      await writeFile(file, rotated);
      now += 120_000;
      expect((await w.call()).status).toBe(200);
      expect(w.as.log.map((r) => r.body.get('assertion'))[1]).toBe(rotated);
      expect(w.as.log[1]?.body.get('client_id')).toBe('wl');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reports invalid_grant (wrong audience, expired) and invalid_scope once: no retry, no other grant', async () => {
    for (const [assertion, scope, code] of [
      [await workloadJwt('https://wrong.example'), undefined, 'invalid_grant'],
      [await workloadJwt(AS, -60), undefined, 'invalid_grant'],
      [await workloadJwt(), 'forbidden', 'invalid_scope'],
    ] as const) {
      const w = machineWorld(
        { assertionIssuers, refuseScopes: ['forbidden'] },
        workloadIdentity({ issuer: AS, assertion }),
        {
          rs: { requiredScopes: () => (scope === undefined ? [] : [scope]) },
        },
      );
      const error = (await w.call().catch((e: unknown) => e)) as OAuthError;
      expect(error.message).toContain(`HTTP 400 (${code})`);
      expect(error.message).not.toContain(assertion);
      expect(w.as.log).toHaveLength(1);
    }
  });

  it('a token source that fails or is not a JWT stops before the token endpoint, without showing it', async () => {
    for (const assertion of [() => Promise.reject(new Error('EACCES')), () => 'not-a-jwt-but-secret']) {
      const w = machineWorld({ assertionIssuers }, workloadIdentity({ issuer: AS, assertion }));
      const error = (await w.call().catch((e: unknown) => e)) as OAuthError;
      expect(error).toMatchObject({ reason: 'token' });
      expect(error.message).not.toContain('not-a-jwt-but-secret');
      expect(w.as.log).toEqual([]);
    }
    expect(() => workloadIdentity({ issuer: AS, assertion: '' })).toThrow(TypeError);
    expect(() => workloadIdentity({ issuer: AS, assertion: 'x', client: { clientId: '' } })).toThrow(
      TypeError,
    );
  });
});

const IDP = 'https://idp.example';
const idTokenKey = await generateKeyPair('ES256');
const jagKey = await generateKeyPair('ES256');

describe('enterpriseManaged', () => {
  const setup = async (
    overrides: { issuedTokenType?: string; tokenEndpoint?: string; idToken?: string } = {},
  ) => {
    const idp = identityProvider({
      issuer: IDP,
      idTokenKey: idTokenKey.publicKey,
      idTokenAudience: 'app-at-idp',
      jagKey: jagKey.privateKey,
      jagClientId: 'app',
      ...(overrides.issuedTokenType !== undefined && { issuedTokenType: overrides.issuedTokenType }),
    });
    const idToken =
      overrides.idToken ??
      (await signJwt(idTokenKey.privateKey, { iss: IDP, aud: 'app-at-idp', sub: 'ada@corp.example' }));
    const grant = enterpriseManaged({
      issuer: AS,
      idToken: () => idToken,
      identityProvider: {
        issuer: IDP,
        ...(overrides.tokenEndpoint !== undefined && { tokenEndpoint: overrides.tokenEndpoint }),
        client: { clientId: 'app-at-idp' },
      },
      client: { clientId: 'app', clientSecret: 'app-secret' },
    });
    const w = machineWorld(
      { clients: { app: { secret: 'app-secret' } }, assertionIssuers: { [IDP]: jagKey.publicKey } },
      grant,
      { idp },
    );
    return { ...w, idp, idToken };
  };

  it('exchanges the ID token for an ID-JAG at the IdP, then the ID-JAG for an access token', async () => {
    const w = await setup();
    expect((await w.call()).status).toBe(200);
    expect(w.net.requests).toEqual([
      `POST ${MCP}`,
      'GET https://mcp.example/.well-known/oauth-protected-resource/mcp',
      `GET ${AS}/.well-known/oauth-authorization-server`,
      `GET ${IDP}/.well-known/oauth-authorization-server`,
      `GET ${IDP}/.well-known/openid-configuration`,
      `POST ${IDP}/oauth2/token`,
      `POST ${AS}/token`,
      `POST ${MCP}`,
    ]);
    expect(Object.fromEntries(w.idp.log[0] ?? [])).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: w.idToken,
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: AS,
      resource: MCP,
      client_id: 'app-at-idp',
    });
    expect(w.as.log[0]?.body.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(w.as.log[0]?.authorization).toMatch(/^Basic /);
    expect(w.rs.seen[0]).toMatchObject({ subject: 'ada@corp.example', clientId: 'app' });
  });

  it('refuses a forged ID token, a wrong issued_token_type and an http IdP endpoint, before the AS', async () => {
    const forged = await signJwt(jagKey.privateKey, { iss: IDP, aud: 'app-at-idp', sub: 'mallory' });
    const cases = [
      [
        await setup({ idToken: forged }),
        /oauth2\/token refused the urn:ietf:params:oauth:grant-type:token-exchange grant: HTTP 400 \(invalid_grant\)/,
      ],
      [
        await setup({ issuedTokenType: 'urn:ietf:params:oauth:token-type:access_token' }),
        /not the requested urn:ietf:params:oauth:token-type:id-jag/,
      ],
      [await setup({ tokenEndpoint: 'http://idp.example/oauth2/token' }), /is not https/],
    ] as const;
    for (const [w, message] of cases) {
      const error = (await w.call().catch((e: unknown) => e)) as OAuthError;
      expect(error.message).toMatch(message);
      expect(w.as.log).toEqual([]);
    }
  });

  it('refuses arguments that cannot work', () => {
    const client = { clientId: 'app', clientSecret: 's' };
    const identityProvider = { issuer: IDP };
    expect(() => enterpriseManaged({ issuer: AS, idToken: '', identityProvider, client })).toThrow(TypeError);
    expect(() =>
      enterpriseManaged({ issuer: AS, idToken: 'x', identityProvider: { issuer: '' }, client }),
    ).toThrow(TypeError);
    expect(() =>
      enterpriseManaged({ issuer: AS, idToken: 'x', identityProvider, client: { clientId: '' } }),
    ).toThrow(TypeError);
    expect(() => enterpriseManaged({ idToken: 'x', identityProvider, client } as never)).toThrow(
      '"issuer" expected the authorization server\'s issuer URL, got undefined',
    );
  });
});

describe('machine grants are bound to their issuer', () => {
  const EVIL = 'https://evil.example';
  /** An MCP server whose metadata names `servers`, an honest AS and an attacker's AS that logs everything. */
  const hostile = (grant: MachineGrant, servers: readonly string[]) => {
    const honest = machineAuthorizationServer({ issuer: AS, clients });
    const evil = machineAuthorizationServer({ issuer: EVIL, clients });
    const resource = mockResource({
      url: MCP,
      authorizationServers: () => servers,
      tokens: () => [honest.tokens, evil.tokens],
    });
    const net = network({
      [AS]: honest.handler,
      [EVIL]: evil.handler,
      'https://mcp.example': resource.handler,
    });
    const fetch = withOAuth(net.fetch, { grant });
    return { call: () => post(fetch, MCP), honest, evil, net };
  };
  const grants = async (): Promise<readonly MachineGrant[]> => [
    clientCredentials({ issuer: AS, clientId: 'svc', clientSecret: 'svc-secret' }),
    workloadIdentity({
      issuer: AS,
      assertion: await signJwt(platformKey.privateKey, { iss: PLATFORM, aud: AS, sub: 'wl' }),
    }),
    enterpriseManaged({
      issuer: AS,
      idToken: 'a.b.c',
      identityProvider: { issuer: IDP, tokenEndpoint: `${IDP}/token` },
      client: { clientId: 'svc', clientSecret: 'svc-secret' },
    }),
  ];

  it('sends nothing to an authorization server the MCP server names instead of the configured one', async () => {
    for (const grant of await grants()) {
      const w = hostile(grant, [EVIL]);
      const error = (await w.call().catch((e: unknown) => e)) as OAuthError;
      expect(error).toBeInstanceOf(OAuthError);
      expect(error.reason).toBe('untrusted-issuer');
      expect(error.message).toContain(`names "${EVIL}", not the ${grant.grantType} grant's issuer "${AS}"`);
      expect(w.evil.log).toEqual([]);
      expect(w.net.requests.filter((r) => r.includes('evil.example') || r.includes('idp.example'))).toEqual(
        [],
      );
      expect(error.message).not.toMatch(/svc-secret|eyJ/);
    }
  });

  it('picks its own issuer among several listed, wherever it is in the list', async () => {
    const grant = clientCredentials({ issuer: AS, clientId: 'svc', clientSecret: 'svc-secret' });
    const w = hostile(grant, [EVIL, AS]);
    expect((await w.call()).status).toBe(200);
    expect(w.evil.log).toEqual([]);
    expect(w.honest.log).toHaveLength(1);
  });

  it('an issuer is an exact string: a trailing slash or another port is another authorization server', async () => {
    for (const named of [`${AS}/`, 'https://as.example:8443', 'https://AS.example']) {
      const grant = clientCredentials({ issuer: AS, clientId: 'svc', clientSecret: 'svc-secret' });
      const error = (await hostile(grant, [named])
        .call()
        .catch((e: unknown) => e)) as OAuthError;
      expect(error.reason).toBe('untrusted-issuer');
    }
  });

  it('refuses a grant without an issuer, or with a non-https one, when it is made', () => {
    expect(() => clientCredentials({ clientId: 'svc', clientSecret: 's' } as never)).toThrow(
      '"issuer" expected the authorization server\'s issuer URL, got undefined',
    );
    expect(() =>
      clientCredentials({ issuer: 'http://as.example', clientId: 'svc', clientSecret: 's' }),
    ).toThrow(/https issuer URL/);
    expect(() => workloadIdentity({ issuer: 'not a url', assertion: 'x' })).toThrow(TypeError);
    const custom = {
      grantType: 'custom',
      obtain: async () => ({ accessToken: 't' }),
    } as unknown as MachineGrant;
    expect(() => withOAuth(undefined, { grant: custom })).toThrow('"grant.issuer" expected');
    expect(
      clientCredentials({ issuer: 'http://127.0.0.1:9000', clientId: 'svc', clientSecret: 's' }).issuer,
    ).toBe('http://127.0.0.1:9000');
  });
});
