// The fleet's backing services and its instances as processes: PostgreSQL, Redis and nginx from Debian's
// packages (installed with apt-get when missing and we are root), and `node dist/instance.js` per instance.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { nginxBin } from '@boomerang/test-kit/nginx';
import { postgresBin } from '@boomerang/test-kit/postgres';
import { redisServerBin } from '@boomerang/test-kit/redis';

/** The Debian packages the fleet runs on, and how to tell each is there. */
const PACKAGES: readonly { readonly name: string; readonly present: () => boolean }[] = [
  { name: 'postgresql', present: () => postgresBin() !== undefined },
  { name: 'redis-server', present: () => redisServerBin() !== undefined },
  { name: 'nginx', present: () => nginxBin() !== undefined },
];

/**
 * Installs the missing Debian packages (`apt-get install`, as root), or throws naming them when it cannot.
 * Resolves to the names it installed.
 */
export function ensureDebianPackages(out: (line: string) => void): string[] {
  const missing = PACKAGES.filter((pkg) => !pkg.present()).map((pkg) => pkg.name);
  if (missing.length === 0) return [];
  if (process.getuid?.() !== 0) {
    throw new Error(
      `missing Debian packages: ${missing.join(' ')} (apt-get install -y ${missing.join(' ')})`,
    );
  }
  out(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'ignore', env });
  const still = PACKAGES.filter((pkg) => !pkg.present()).map((pkg) => pkg.name);
  if (still.length > 0) throw new Error(`apt-get did not install: ${still.join(' ')}`);
  return missing;
}

/** What an instance runs with (its environment: the fleet shares keys and services through it). */
export interface InstanceConfig {
  readonly name: string;
  readonly port: number;
  readonly sealKeys: string;
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly publicHosts: readonly string[];
  readonly stateTtlSeconds: number;
  readonly bus: 'redis' | 'postgres';
  /** Where the instance exports its spans (the fleet's receiver); absent: not traced. */
  readonly otlpUrl?: string | undefined;
}

/** A running instance process. */
export interface InstanceProcess {
  readonly config: InstanceConfig;
  /** `127.0.0.1:<port>`, as nginx names it. */
  readonly address: string;
  readonly url: string;
  /** SIGTERM, then waits for the exit (graceful: listen streams ended, requests in flight finished). */
  stop(): Promise<void>;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
  /** The last 4,000 characters the instance wrote to stderr (its errors and its notification bus's warnings). */
  stderr(): string;
}

/** Starts `node <appDir>/dist/instance.js` with `config` in its environment; resolves once it says `ready`. */
export async function startInstance(appDir: string, config: InstanceConfig): Promise<InstanceProcess> {
  const env = {
    ...process.env,
    FLEET_INSTANCE: config.name,
    PORT: String(config.port),
    SEAL_KEYS: config.sealKeys,
    DATABASE_URL: config.databaseUrl,
    REDIS_URL: config.redisUrl,
    FLEET_PUBLIC_HOSTS: config.publicHosts.join(','),
    FLEET_STATE_TTL_SECONDS: String(config.stateTtlSeconds),
    FLEET_BUS: config.bus,
    ...(config.otlpUrl !== undefined && { FLEET_OTLP_URL: config.otlpUrl }),
  };
  const child: ChildProcess = spawn(process.execPath, [join(appDir, 'dist/instance.js')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`instance ${config.name} did not start within 30 s:\n${log}`));
    }, 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const ready = /^ready (\S+)$/m.exec(buffered);
      if (ready !== null) {
        clearTimeout(timer);
        resolve(ready[1] as string);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`instance ${config.name} exited (${code ?? signal}) before it was ready:\n${log}`));
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    // A graceful stop that hangs is cut after 15 s.
    const cut = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(cut);
  };
  return {
    config,
    address: `127.0.0.1:${config.port}`,
    url,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
    stderr: () => log,
  };
}
