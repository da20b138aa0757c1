// A throwaway Verdaccio registry on 127.0.0.1: its config, its start (waiting until it answers), a user to
// publish as, and its stop. The @boomerang packages and create-boomerang are served only from its own storage;
// every other package (zod, @noble/*, jose, typescript, …) is proxied from registry.npmjs.org, so a project
// installed from this registry gets its third-party dependencies as it would from npm.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/** The packages this registry owns: never looked up upstream, so nothing on npm can stand in for them. */
export const OWN_PACKAGES = ['@boomerang/*', 'create-boomerang'];

/** The upstream registry every other package comes from. */
export const UPLINK = 'https://registry.npmjs.org/';

/** A free TCP port on 127.0.0.1 (the OS picks one; it is free again once this resolves). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Throws when something already listens on 127.0.0.1:`port` (whose answers would pass for the registry's). */
function assertPortFree(port) {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error) =>
      reject(new Error(`port ${port} on 127.0.0.1 is in use (${error.code}); pick another with --port`)),
    );
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}

/**
 * The Verdaccio config (YAML) for a registry kept in `dir`: storage and users under it, the packages of
 * {@link OWN_PACKAGES} published by any signed-in user and never proxied, every other package proxied from
 * {@link UPLINK} (unless `uplink` is false: then only what is published here exists).
 */
export function verdaccioConfig(dir, { uplink = true } = {}) {
  const own = OWN_PACKAGES.map((name) => `  '${name}':\n    access: $all\n    publish: $authenticated\n`);
  return [
    `storage: ${JSON.stringify(join(dir, 'storage'))}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(join(dir, 'htpasswd'))}`,
    '    max_users: 10',
    ...(uplink ? ['uplinks:', '  npmjs:', `    url: ${UPLINK}`, '    timeout: 60s', '    max_fails: 5'] : []),
    'packages:',
    ...own,
    `  '**':\n    access: $all\n    publish: $authenticated${uplink ? '\n    proxy: npmjs' : ''}`,
    'log: { type: stdout, format: pretty, level: warn }',
    'publish:',
    '  allow_offline: true',
    '',
  ].join('\n');
}

/** Polls `url` until it answers 200, or throws after `timeoutMs` (or when `exited()` says the process died). */
async function waitUntilUp(url, timeoutMs, exited) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const died = exited();
    if (died !== undefined) throw new Error(`Verdaccio exited (${died}) before answering`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`Verdaccio did not answer ${url} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Creates a user on the registry (Verdaccio's htpasswd sign-up) and returns its token, for publishing. */
export async function createUser(url, name = 'boomerang', password = 'boomerang-local-release') {
  const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password, type: 'user', roles: [] }),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok || typeof body.token !== 'string') {
    throw new Error(`could not create a registry user: HTTP ${response.status} ${JSON.stringify(body)}`);
  }
  return body.token;
}

/**
 * Starts Verdaccio (the version pinned by this app) with the config of {@link verdaccioConfig} in `dir`, on
 * 127.0.0.1 at `port` (a free one by default), and resolves once it answers, with its `url`, the `pid`, the `log`
 * file, and `stop()` (resolves once the process has exited). With `detached`, it outlives this process (`--keep`).
 */
export async function startRegistry(dir, { port, uplink = true, detached = false, timeoutMs = 60_000 } = {}) {
  mkdirSync(dir, { recursive: true });
  if (port !== undefined) await assertPortFree(port);
  const chosen = port ?? (await freePort());
  const config = join(dir, 'config.yaml');
  writeFileSync(config, verdaccioConfig(dir, { uplink }));
  const require = createRequire(import.meta.url);
  const bin = join(dirname(require.resolve('verdaccio/package.json')), 'bin/verdaccio');
  const log = join(dir, 'verdaccio.log');
  const out = createWriteStream(log);
  await new Promise((resolve) => out.once('open', resolve));
  const child = spawn(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${chosen}`], {
    stdio: ['ignore', out, out],
    detached,
  });
  // A registry that is not kept dies with this process, however it ends (the CLIs turn signals into exits).
  const killChild = () => child.kill('SIGTERM');
  if (!detached) process.once('exit', killChild);
  let exit;
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      process.off('exit', killChild);
      exit = signal ?? code;
      resolve();
    });
  });
  const url = `http://127.0.0.1:${chosen}/`;
  const stop = async () => {
    if (exit === undefined) child.kill('SIGTERM');
    await exited;
    out.end();
  };
  try {
    await waitUntilUp(new URL('-/ping', url), timeoutMs, () => exit);
  } catch (error) {
    await stop();
    throw new Error(`${error.message}; see ${log}`);
  }
  if (detached) child.unref();
  return { url, pid: child.pid, log, stop };
}
