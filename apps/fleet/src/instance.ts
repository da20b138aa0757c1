#!/usr/bin/env node
import { serverTelemetry } from '@boomerang/otel';
// One instance of the fleet: the bookshop (src/bookshop.ts) on Streamable HTTP at 127.0.0.1:$PORT/mcp, its state
// keys from $SEAL_KEYS, its tasks in PostgreSQL ($DATABASE_URL), its notifications on Redis ($REDIS_URL, or on
// PostgreSQL LISTEN/NOTIFY with FLEET_BUS=postgres). Beside /mcp (what nginx proxies), two control routes the
// fleet script calls directly: POST /fleet/tools?name=X registers a tool here (its list_changed goes to every
// instance's listeners), GET /fleet/health answers `ok`. SIGTERM stops gracefully (listen streams ended, requests
// in flight finished, then connections closed); the first stdout line is `ready <url>`.
import { postgresNotifications, postgresTaskStore } from '@boomerang/postgres';
import { redisNotifications } from '@boomerang/redis';
import { parseKeys } from '@boomerang/seal';
import { createTasks } from '@boomerang/tasks';
import { listen } from '@boomerang/transport-http/node';
import pg from 'pg';
import { createClient } from 'redis';
import { createFleetServer } from './bookshop.js';
import { startTracing } from './telemetry.js';

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    process.stderr.write(`fleet instance: ${name} is not set\n`);
    process.exit(2);
  }
  return value;
}

const instance = required('FLEET_INSTANCE');
const port = Number(required('PORT'));
// #region shared
const keys = parseKeys(required('SEAL_KEYS')); // newest first: the first seals, all of them open
const publicHosts = (process.env.FLEET_PUBLIC_HOSTS ?? '').split(',').filter((host) => host !== '');
const ttlSeconds = Number(process.env.FLEET_STATE_TTL_SECONDS ?? '600');
const bus = process.env.FLEET_BUS ?? 'redis';
const quiet = () => {};

const pool = new pg.Pool({ connectionString: required('DATABASE_URL'), max: 8 });
// A PostgreSQL restart breaks idle connections: the pool reports it here, and opens new ones when asked.
pool.on('error', quiet);
const redis = createClient({ url: required('REDIS_URL'), socket: { reconnectStrategy: () => 100 } });
redis.on('error', quiet);
if (bus === 'redis') await redis.connect();
// The bus's warnings (lost, restored, notifications missing) go to stderr: the fleet shows them when a listener
// misses a notification.
const busWarn = (message: string) => process.stderr.write(`[${instance}] bus: ${message}\n`);
const notifications =
  bus === 'postgres'
    ? postgresNotifications(pool, { keys, warn: busWarn })
    : redisNotifications(redis, { keys, warn: busWarn });
const tasks = createTasks({ store: postgresTaskStore(pool), pollIntervalMs: 100, logger: { warn: quiet } });
const mcp = createFleetServer({
  keys,
  ttlSeconds,
  notifications,
  tasks,
  printBatchMs: 20,
  logger: { warn: quiet, error: (message) => process.stderr.write(`[${instance}] ${message}\n`) },
});
// #endregion shared
// With FLEET_OTLP_URL, every request is traced (one SERVER span per round) and exported to the fleet's receiver.
const tracing = startTracing('fleet-bookshop', instance, process.env.FLEET_OTLP_URL);
if (tracing !== undefined) mcp.use(serverTelemetry());

const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, ...publicHosts];
const endpoint = await listen(mcp, {
  port,
  host: '127.0.0.1',
  allowedHosts: hosts,
  allowedOrigins: hosts.flatMap((host) => [`http://${host}`, `https://${host}`]),
  legacy: { sessionIdPrefix: `${instance}.` },
  routes: {
    '/fleet/health': () => new Response('ok'),
    '/fleet/tools': (request) => {
      const name = new URL(request.url).searchParams.get('name');
      if (request.method !== 'POST' || name === null || !/^[a-z0-9_]{1,40}$/.test(name)) {
        return new Response('POST /fleet/tools?name=<a_tool_name>', { status: 400 });
      }
      mcp.tool(name, { description: `Added on ${instance}` }, () => ({
        content: [{ type: 'text', text: `${name} from ${instance}` }],
      }));
      return new Response(`added ${name} on ${instance}`);
    },
  },
});
process.stdout.write(`ready ${endpoint.url.href}\n`);

// #region stop
let stopping = false;
process.once('SIGTERM', async () => {
  if (stopping) return;
  stopping = true;
  await mcp.close(); // listen streams end with their result: clients listen again, through another instance
  await endpoint.close({ graceMs: 5_000 }); // no new connection; requests in flight finish
  await tasks.close();
  await tracing?.shutdown().catch(quiet); // its spans exported before the process ends
  await notifications.close();
  if (redis.isOpen) await redis.close().catch(quiet);
  await pool.end().catch(quiet);
  process.exit(0);
});
// #endregion stop
