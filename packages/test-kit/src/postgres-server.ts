// Starts a throwaway PostgreSQL 15 server from Debian's binaries (`initdb`, `pg_ctl`) on 127.0.0.1, on a free
// port, in a temporary directory; `stop()` shuts it down and removes the directory. As root (CI), the server runs
// as the `postgres` user (initdb refuses root) through `runuser`.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

export { freePort };

const run = promisify(execFile);
const DEBIAN_BIN = '/usr/lib/postgresql/15/bin';

/** The directory holding `initdb` and `pg_ctl`, or `undefined` when PostgreSQL is not installed. */
export function postgresBin(): string | undefined {
  if (existsSync(join(DEBIAN_BIN, 'initdb'))) return DEBIAN_BIN;
  for (const dir of (process.env.PATH ?? '').split(':')) if (existsSync(join(dir, 'pg_ctl'))) return dir;
  return undefined;
}

/** Why the PostgreSQL tests cannot run here, or `undefined` when they can (CI installs the package). */
export const postgresMissing =
  postgresBin() === undefined
    ? 'PostgreSQL binaries (initdb, pg_ctl) not found: install the Debian package `postgresql`'
    : undefined;

/** A running server: its connection string, and how to restart and stop it. */
export interface PostgresServer {
  readonly url: string;
  readonly port: number;
  /**
   * Stops the server (`pg_ctl stop -m fast`: every connection is cut, as in a crash of the clients' side) and
   * starts it again on the same port and data; resolves once it accepts connections again. `downMs` keeps it
   * down that long in between.
   */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Options of {@link startPostgres}. */
export interface PostgresServerOptions {
  /**
   * Flush commits to disk (`fsync`, default `false`): tests do not test PostgreSQL's own durability and run
   * faster without it; a benchmark of durable writes turns it on.
   */
  readonly fsync?: boolean;
}

/** Starts a server; rejects with the tool's output when initdb or pg_ctl fails. */
export async function startPostgres(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const bin = postgresBin();
  if (bin === undefined) throw new Error(postgresMissing);
  const dir = mkdtempSync(join(tmpdir(), 'boomerang-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const as = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]) : run(join(bin, tool), args);
  await as('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const start = () =>
    as('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-w',
      '-o',
      `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=${options.fsync === true ? 'on' : 'off'}`,
      'start',
    ]);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async restart(downMs = 0) {
      await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    async stop() {
      await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
