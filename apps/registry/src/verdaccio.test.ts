// The throwaway registry on its own (the release through it is `node apps/registry/src/e2e.mjs`, minutes long):
// its config, and a real Verdaccio started on 127.0.0.1, signed in to, published to with npm, and stopped.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createUser, freePort, OWN_PACKAGES, startRegistry, verdaccioConfig } from './verdaccio.mjs';

const exec = promisify(execFile);
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'boomerang-registry-test-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('verdaccioConfig', () => {
  it('serves our packages only from its storage, and proxies every other one from npm', () => {
    const config = verdaccioConfig('/tmp/r');
    expect(config).toContain('storage: "/tmp/r/storage"');
    expect(config).toContain('url: https://registry.npmjs.org/');
    for (const name of OWN_PACKAGES) {
      const block = config.slice(config.indexOf(`'${name}':`)).split(/\n {2}'/)[0];
      expect(block).toContain('publish: $authenticated');
      expect(block).not.toContain('proxy');
    }
    expect(config.slice(config.indexOf("'**':"))).toContain('proxy: npmjs');
  });

  it('proxies nothing without the uplink', () => {
    expect(verdaccioConfig('/tmp/r', { uplink: false })).not.toMatch(/uplinks|proxy/);
  });
});

describe('startRegistry', { timeout: 90_000 }, () => {
  it('binds 127.0.0.1, takes a publish from a signed-in user, and stops', async () => {
    const dir = tempDir();
    const registry = await startRegistry(join(dir, 'registry'), { uplink: false });
    try {
      expect(new URL(registry.url).hostname).toBe('127.0.0.1');
      const token = await createUser(registry.url);
      const pkg = join(dir, 'pkg');
      const npmrc = join(dir, 'npmrc');
      writeFileSync(npmrc, `${registry.url.replace(/^http:/, '')}:_authToken=${token}\n`);
      await exec('mkdir', ['-p', pkg]);
      writeFileSync(
        join(pkg, 'package.json'),
        JSON.stringify({ name: '@boomerang/probe', version: '1.0.0' }),
      );
      await exec('npm', ['publish', '--registry', registry.url, '--userconfig', npmrc], { cwd: pkg });
      const response = await fetch(new URL('@boomerang%2fprobe', registry.url));
      expect(((await response.json()) as { 'dist-tags': { latest: string } })['dist-tags'].latest).toBe(
        '1.0.0',
      );
      // Without a token, publishing is refused.
      writeFileSync(
        join(pkg, 'package.json'),
        JSON.stringify({ name: '@boomerang/probe', version: '1.0.1' }),
      );
      await expect(
        exec('npm', ['publish', '--registry', registry.url, '--userconfig', join(dir, 'none')], { cwd: pkg }),
      ).rejects.toThrow();
    } finally {
      await registry.stop();
    }
    await expect(fetch(registry.url)).rejects.toThrow();
    expect(readFileSync(registry.log, 'utf8')).not.toMatch(/fatal/i);
  });

  it('refuses a port something already listens on', async () => {
    const port = await freePort();
    const first = createServer().listen(port, '127.0.0.1');
    await once(first, 'listening');
    try {
      await expect(startRegistry(join(tempDir(), 'b'), { port, uplink: false })).rejects.toThrow(
        `port ${port} on 127.0.0.1 is in use`,
      );
    } finally {
      first.close();
    }
  });
});
