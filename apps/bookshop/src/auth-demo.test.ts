import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runAuthDemo } from './auth-demo.js';
import { startAuthServer } from './auth-server.js';
import { scriptedCallbacks } from './callbacks.js';

/** The sign-in lines the scripted `--auth` demo prints, in order (ports masked). */
const SIGN_IN = [
  '== sign in: the first request gets 401; withOAuth discovers, registers, authorizes, and retries',
  '  [oauth] HTTP 401 from http://127.0.0.1:<port>/mcp; discovering its Protected Resource Metadata',
  '  [oauth] discovering authorization server http://127.0.0.1:<port>',
  '  [oauth] GET /.well-known/oauth-authorization-server → HTTP 200',
  '  [oauth] POST /register → HTTP 201',
  '  [oauth] authorizing http://127.0.0.1:<port>/mcp at http://127.0.0.1:<port>/authorize (scope: books:order)',
  '  [browser] GET http://127.0.0.1:<port>/authorize (client_id, PKCE S256 challenge, state, resource, scope)',
  '  [browser] consent auto-approved; redirected to http://127.0.0.1:<port>/callback: HTTP 200',
  '  [oauth] POST /token → HTTP 200',
  '  [server] bearer token verified: subject alice, client bookshop-client-1, scopes books:order',
  '← ok: signed in as alice (client bookshop-client-1, issuer http://127.0.0.1:<port>)',
];
const ORDERED =
  '=> Ordered 2 × "Dune" (hardcover), gift-wrapped with a card: "Happy birthday!": express shipping, arriving in 2 days, EUR 31.00.';
const REFUSED = '=> as bob (same OAuth client): refused, -32602 Invalid or expired requestState';
const OWNER = '=> as alice again (a fresh token): accepted: the state is bound to the user, not to a token';

const masked = (lines: readonly string[]) =>
  lines.map((line) => line.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>'));
const PREFIXES = [
  '== sign in',
  '  [oauth]',
  '  [browser]',
  '  [server] bearer token verified: subject alice',
  '← ok: signed in',
];
/** The sign-in lines, in order. */
const signIn = (lines: readonly string[]) =>
  masked(lines).filter((line) => PREFIXES.some((prefix) => line.startsWith(prefix)));

describe('the --auth demo (scripted browser sign-in)', () => {
  it('signs in through the loopback redirect, orders a book, and shows the state bound to the user', async () => {
    const lines: string[] = [];
    const out = (line: string) => lines.push(line);
    const outcome = await runAuthDemo({ callbacks: scriptedCallbacks({ cwd: '/tmp/shop' }, out) }, out);
    expect(outcome.principal).toMatchObject({
      subject: 'alice',
      clientId: 'bookshop-client-1',
      scopes: ['books:order'],
    });
    expect(outcome.principal?.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(outcome.result.isError).toBeUndefined();
    expect(outcome.replay).toEqual({ code: -32602, message: 'Invalid or expired requestState' });
    expect(outcome.replayByOwner).toBe('accepted');
    expect(signIn(lines)).toEqual(SIGN_IN);
    expect(lines).toContain(ORDERED);
    expect(lines).toContain(REFUSED);
    expect(lines).toContain(OWNER);
    // No secret on screen: no code, token or verifier in what is printed.
    expect(lines.join('\n')).not.toMatch(/code=|access_token|code_verifier|Bearer /);
  });
});

describe('the demo authorization server', () => {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((stop) => stop()));
  });

  it('refuses a wrong PKCE verifier, an unregistered redirect URI, a reused code, and tokens for other resources', async () => {
    const as = await startAuthServer({ subject: 'ada' });
    stops.push(() => as.close());
    const resource = 'http://127.0.0.1:1/mcp';
    const redirectUri = 'http://127.0.0.1:2/callback';
    const registered = await fetch(`${as.issuer}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [redirectUri], client_name: 'test' }),
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const verifier = 'v'.repeat(50);
    const challenge = Buffer.from(
      await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)),
    ).toString('base64url');
    const authorize = (uri: string) => {
      const url = new URL(`${as.issuer}/authorize`);
      const params = { response_type: 'code', client_id: clientId, redirect_uri: uri, state: 's', resource };
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      url.searchParams.set('code_challenge', challenge);
      url.searchParams.set('code_challenge_method', 'S256');
      return fetch(url, { redirect: 'manual' });
    };
    expect((await authorize('http://127.0.0.1:3/elsewhere')).status).toBe(400); // shown, never redirected to
    const code = async () => {
      const location = new URL((await authorize(redirectUri)).headers.get('location') ?? '');
      expect(location.searchParams.get('iss')).toBe(as.issuer);
      expect(location.searchParams.get('state')).toBe('s');
      return location.searchParams.get('code') ?? '';
    };
    const token = (grant: string, codeVerifier: string, forResource = resource) =>
      fetch(`${as.issuer}/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: grant,
          redirect_uri: redirectUri,
          client_id: clientId,
          code_verifier: codeVerifier,
          resource: forResource,
        }),
      });
    expect((await token(await code(), 'w'.repeat(50))).status).toBe(400);
    expect((await token(await code(), verifier, 'http://127.0.0.1:9/other')).status).toBe(400);
    const grant = await code();
    const ok = await token(grant, verifier);
    expect(ok.status).toBe(200);
    const { access_token: accessToken } = (await ok.json()) as { access_token: string };
    expect(as.verify(accessToken, resource)).toMatchObject({ subject: 'ada', clientId, issuer: as.issuer });
    expect(as.verify(accessToken, 'http://127.0.0.1:9/other')).toBeUndefined();
    expect((await token(grant, verifier)).status).toBe(400); // single use
  });
});

describe('node dist/demo.js --auth (built app)', () => {
  const demoJs = fileURLToPath(new URL('../dist/demo.js', import.meta.url));
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child?.exitCode === null) child.kill('SIGTERM');
    child = undefined;
  });

  it.skipIf(!existsSync(demoJs))('prints the sign-in and the order, and exits 0', async () => {
    child = spawn(process.execPath, [demoJs, '--auth'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child?.once('exit', resolve));
    const lines = stdout.split('\n');
    expect(code).toBe(0);
    expect(signIn(lines)).toEqual(SIGN_IN);
    expect(lines).toContain(ORDERED);
    expect(lines).toContain(REFUSED);
  });
});
