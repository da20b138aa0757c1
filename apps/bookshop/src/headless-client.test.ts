import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runHeadlessClient, STOCK_SCOPE } from './headless-client.js';

const SIGN_IN = [
  '  [oauth] HTTP 401 from http://127.0.0.1:<port>/mcp; discovering its Protected Resource Metadata',
  '  [oauth] discovering authorization server http://127.0.0.1:<port>',
  '  [oauth] requesting a token for http://127.0.0.1:<port>/mcp at http://127.0.0.1:<port>/token with the client_credentials grant (scope: books:stock)',
  '  [server] signed in as bookshop-service-stock-report (scopes books:stock)',
];
const masked = (lines: readonly string[]) =>
  lines.map((line) => line.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>'));

describe('the headless client (client credentials)', () => {
  it('signs in as its service client and reports the stock, with no secret or token on screen', async () => {
    const lines: string[] = [];
    const outcome = await runHeadlessClient({ titles: ['Dune', 'Solaris'] }, (line) => lines.push(line));
    expect(outcome.principal).toMatchObject({
      clientId: 'bookshop-service-stock-report',
      subject: 'bookshop-service-stock-report',
      scopes: [STOCK_SCOPE],
    });
    expect(outcome.report).toHaveLength(2);
    expect(masked(lines).filter((line) => line.startsWith('  ['))).toEqual(SIGN_IN);
    expect(lines.slice(-2)).toEqual([`Dune: ${outcome.report[0]}`, `Solaris: ${outcome.report[1]}`]);
    expect(lines.join('\n')).not.toMatch(/access_token|client_secret|Bearer |Basic /);
  });

  it('fails with the token endpoint refusal for a wrong secret, without showing it', async () => {
    const lines: string[] = [];
    const error = (await runHeadlessClient({ secret: 'not-the-secret' }, (line) => lines.push(line)).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toContain('refused the client_credentials grant: HTTP 401 (invalid_client)');
    expect([error.message, ...lines].join('\n')).not.toContain('not-the-secret');
  });
});

describe('node dist/headless.js (built app)', () => {
  const headlessJs = fileURLToPath(new URL('../dist/headless.js', import.meta.url));
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child?.exitCode === null) child.kill('SIGTERM');
    child = undefined;
  });

  it.skipIf(!existsSync(headlessJs))('prints the sign-in and one line per title, and exits 0', async () => {
    child = spawn(process.execPath, [headlessJs, 'Dune'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child?.once('exit', resolve));
    const lines = stdout.trim().split('\n');
    expect(code).toBe(0);
    expect(masked(lines).filter((line) => line.startsWith('  ['))).toEqual(SIGN_IN);
    expect(lines.at(-1)).toMatch(/^Dune: /);
  });
});
