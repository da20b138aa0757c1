// The fleet script: PostgreSQL + Redis + nginx + N bookshop instances on 127.0.0.1, a load generator in its own
// process running MRTR flows through nginx, listeners on `subscriptions/listen`, and, under load, in order: the
// three-phase key rotation by rolling restarts, kill -9 of an instance and its restart, a tool added on one
// instance heard by the listeners of every instance, a task created, answered and completed on three different
// instances, 2025-11-25 sessions pinned by Mcp-Session-Id, and the same load against one instance directly.
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JSONRPCRequest } from '@boomerang/protocol';
import { TASKS_EXTENSION } from '@boomerang/tasks';
import { type NginxServer, startNginx } from '@boomerang/test-kit/nginx';
import { freePort, type PostgresServer, startPostgres } from '@boomerang/test-kit/postgres';
import { type RedisServer, startRedis } from '@boomerang/test-kit/redis';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { type Listener, startListener } from './listeners.js';
import { nginxHttpBlock } from './nginx.js';
import { startTraceReceiver, type TraceReceiver } from './receiver.js';
import {
  ensureDebianPackages,
  type InstanceConfig,
  type InstanceProcess,
  startInstance,
} from './services.js';
import { formatStep, type StepSummary } from './stats.js';
import { checkTraces, waterfall } from './traces.js';

/** How big and how long a run is. */
export interface FleetOptions {
  /** The CI-sized run (about a minute, every step); otherwise about five minutes. */
  readonly short?: boolean | undefined;
  /** Instances (default 3). */
  readonly instances?: number | undefined;
  /** Concurrent flows of the load generator (default 6 short, 12 long). */
  readonly concurrency?: number | undefined;
  /** The bus the instances share (default `redis`; `postgres` for LISTEN/NOTIFY). */
  readonly bus?: 'redis' | 'postgres' | undefined;
  /**
   * Trace every process (serverTelemetry, clientTelemetry) to a receiver the run starts, and check that each 3-round
   * flow is one trace (default true); the waterfall of one such flow is written to `traceHtml` (default: a file in
   * the temporary folder, printed).
   */
  readonly traces?: boolean | undefined;
  readonly traceHtml?: string | undefined;
}

/** What a run measured. */
export interface FleetReport {
  readonly steps: readonly StepSummary[];
  readonly attempted: number;
  readonly completed: number;
  readonly failed: number;
  readonly killed: number;
  readonly other: number;
  /** Requests nginx answered 502/504 for the killed instance: the flows in flight there when it was killed. */
  readonly inFlightAtKill: number;
  readonly notifications: { readonly delivered: number; readonly expected: number };
  /** p99 of `order_book` (3 rounds) through nginx over the whole run, and against one instance directly. */
  readonly p99ThreeRound: number;
  readonly p99ThreeRoundDirect: number;
  /** Of the traced 3-round flows, how many form one trace, and how many of those spread over instances. */
  readonly traces: { readonly complete: number; readonly total: number; readonly spread: number } | undefined;
  /** The figure line. */
  readonly line: string;
  /** True when the run met the issue's bar: no failure but the killed instance's, every notification once. */
  readonly ok: boolean;
}

/** The timings of a mode, in ms. */
interface Pace {
  readonly warmUp: number;
  readonly baseline: number;
  /** How long a drained instance keeps running before its stop (requests already sent to it finish). */
  readonly drain: number;
  readonly betweenRestarts: number;
  readonly stateTtlSeconds: number;
  readonly afterKill: number;
  readonly afterRestart: number;
  readonly legacy: number;
  readonly direct: number;
  readonly steady: number;
}

const SHORT: Pace = {
  warmUp: 1000,
  baseline: 3000,
  drain: 300,
  betweenRestarts: 400,
  stateTtlSeconds: 3,
  afterKill: 1500,
  afterRestart: 1500,
  legacy: 3000,
  direct: 3000,
  steady: 1000,
};
const LONG: Pace = {
  warmUp: 5_000,
  baseline: 40_000,
  drain: 1_000,
  betweenRestarts: 7_000,
  stateTtlSeconds: 20,
  afterKill: 15_000,
  afterRestart: 15_000,
  legacy: 20_000,
  direct: 30_000,
  steady: 40_000,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const hexKey = () => randomBytes(32).toString('hex');

/** The app's folder (src/ or dist/ are one level below it). */
export const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/** What a run must stop if the process is interrupted (see {@link stopEverything}). */
const running = new Set<() => Promise<void>>();

/**
 * Stops what the runs in progress started (instances, load generator, listeners, nginx, Redis, PostgreSQL): for a
 * SIGINT/SIGTERM of the fleet script, whose `finally` blocks would not run.
 */
export async function stopEverything(): Promise<void> {
  await Promise.allSettled([...running].map((stop) => stop()));
}

/** Runs the fleet, printing each step through `out`; resolves to the report (the figure line is its last line). */
export async function runFleet(options: FleetOptions, out: (line: string) => void): Promise<FleetReport> {
  const pace = options.short === true ? SHORT : LONG;
  const count = options.instances ?? 3;
  const concurrency = options.concurrency ?? (options.short === true ? 6 : 12);
  const bus = options.bus ?? 'redis';
  ensureDebianPackages(out);
  const started = performance.now();
  const clock = () => `${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s`;
  const say = (line: string) => out(`[${clock()}] ${line}`);

  let postgres: PostgresServer | undefined;
  let redis: RedisServer | undefined;
  let nginx: NginxServer | undefined;
  let receiver: TraceReceiver | undefined;
  let load: ChildProcess | undefined;
  const instances: InstanceProcess[] = [];
  const listeners: Listener[] = [];
  let stopped: Promise<void> | undefined;
  const stopAll = () => {
    stopped ??= (async () => {
      if (load !== undefined && load.exitCode === null) load.kill('SIGTERM');
      await Promise.allSettled(listeners.map((l) => l.stop()));
      await Promise.allSettled(instances.map((it) => it.stop()));
      await Promise.allSettled([nginx?.stop(), redis?.stop(), postgres?.stop(), receiver?.stop()]);
    })();
    return stopped;
  };
  running.add(stopAll);
  try {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    if (options.traces !== false) receiver = await startTraceReceiver();
    const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
    const names = ports.map((_, i) => `i${i + 1}`);
    const nginxInstances = ports.map((port, i) => ({ name: names[i] as string, port }));
    const draining = new Set<string>();
    const render = (port: number, dir: string) => nginxHttpBlock(nginxInstances, port, dir, draining);
    nginx = await startNginx(render);
    const entry = `${nginx.origin}/mcp`;
    const publicHosts = [`127.0.0.1:${nginx.port}`, `localhost:${nginx.port}`];
    const oldKey = hexKey();
    const newKey = hexKey();
    const configOf = (i: number, sealKeys: string): InstanceConfig => ({
      name: names[i] as string,
      port: ports[i] as number,
      sealKeys,
      databaseUrl: (postgres as PostgresServer).url,
      redisUrl: (redis as RedisServer).url,
      publicHosts,
      stateTtlSeconds: pace.stateTtlSeconds,
      bus,
      otlpUrl: receiver?.url,
    });
    instances.push(...(await Promise.all(ports.map((_, i) => startInstance(APP_DIR, configOf(i, oldKey))))));
    const label: Record<string, string> = Object.fromEntries(
      instances.map((it) => [it.address, it.config.name]),
    );
    say(
      `PostgreSQL ${postgres.url}, Redis ${redis.url}, nginx ${nginx.origin} → ${instances
        .map((it) => `${it.config.name}=${it.address}`)
        .join(' ')}; bus: ${bus}; load: ${concurrency} concurrent flows`,
    );

    for (let i = 0; i < 2 * count; i++) listeners.push(startListener(`L${i + 1}`, entry));
    await until(() => listeners.every((l) => l.live), 15_000, 'every listener to be acknowledged');
    say(`listeners: ${listeners.map((l) => `${l.label}@${label[l.upstream ?? ''] ?? '?'}`).join(' ')}`);

    // --- the load generator, its own process
    // `execArgv: []`: not the parent's flags (under vitest they make packages resolve to their TypeScript sources).
    load = fork(join(APP_DIR, 'dist/load.js'), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: [],
      env: receiver === undefined ? process.env : { ...process.env, FLEET_OTLP_URL: receiver.url },
    });
    let loadExit: string | undefined;
    load.once('exit', (code, signal) => {
      loadExit = `the load generator exited (${code ?? signal})`;
    });
    const summaries: StepSummary[] = [];
    let stoppedFlows = 0;
    let loadStarted = false;
    const loadTotals = { p99ThreeRound: 0, traced: [] as string[] };
    let waiting: ((summary: StepSummary) => void) | undefined;
    load.on(
      'message',
      (message: {
        type: string;
        summary?: StepSummary;
        flows?: number;
        p99ThreeRound?: number;
        traced?: string[];
      }) => {
        if (message.type === 'summary' && message.summary !== undefined) {
          summaries.push(message.summary);
          waiting?.(message.summary);
        }
        if (message.type === 'started') loadStarted = true;
        if (message.type === 'stopped') {
          loadTotals.p99ThreeRound = message.p99ThreeRound ?? 0;
          loadTotals.traced = message.traced ?? [];
          stoppedFlows = message.flows ?? 0;
        }
      },
    );
    const loadSend = (message: object) => load?.send(message);
    const mark = (step: string, stop = false) =>
      new Promise<StepSummary>((resolve, reject) => {
        if (loadExit !== undefined) {
          reject(new Error(loadExit));
          return;
        }
        const timer = setTimeout(() => reject(new Error(loadExit ?? `no figures for step ${step}`)), 60_000);
        waiting = (summary) => {
          clearTimeout(timer);
          resolve(summary);
        };
        loadSend(stop ? { type: 'stop', step } : { type: 'mark', step });
      });
    const report = (summary: StepSummary) => {
      for (const line of formatStep(summary, label)) out(line);
    };
    // A safety bound, far above the run's own length (a loaded machine is slow).
    const maxSeconds = options.short === true ? 900 : 1800;
    loadSend({ type: 'start', url: entry, concurrency, maxSeconds, maxFlows: 5_000_000 });

    // A planned restart: out of the round robin first (nginx reload), then a graceful stop, then back in.
    const restart = async (i: number, sealKeys: string) => {
      const name = names[i] as string;
      draining.add(name);
      await (nginx as NginxServer).reload(render);
      await sleep(pace.drain);
      await (instances[i] as InstanceProcess).stop();
      instances[i] = await startInstance(APP_DIR, configOf(i, sealKeys));
      draining.delete(name);
      await (nginx as NginxServer).reload(render);
    };

    // 0. baseline (after a warm-up: the load generator's first flows start its clients)
    await until(() => loadStarted || loadExit !== undefined, 60_000, 'the load generator’s first flow');
    if (loadExit !== undefined) throw new Error(loadExit);
    await sleep(pace.warmUp);
    report(await mark('warm-up'));
    say('step 0: steady load through nginx');
    await sleep(pace.baseline);
    const baseline = await mark('baseline');
    report(baseline);

    // 1. three-phase key rotation by rolling restarts, under load
    const errorsBefore = logLines(nginx, 'error.log').length;
    say(
      'step 1: key rotation by rolling restarts (SEAL_KEYS old → old,new → new,old → new; each instance drained from nginx first)',
    );
    for (const [phase, keys] of [
      ['old,new', `${oldKey},${newKey}`],
      ['new,old', `${newKey},${oldKey}`],
    ] as const) {
      for (let i = 0; i < count; i++) {
        await restart(i, keys);
        say(`  ${names[i]} restarted with SEAL_KEYS=${phase}`);
        await sleep(pace.betweenRestarts);
      }
      if (phase === 'new,old') {
        say(`  whole fleet on new,old: waiting one state TTL (${pace.stateTtlSeconds} s)`);
        await sleep(pace.stateTtlSeconds * 1000 + 500);
      }
    }
    for (let i = 0; i < count; i++) {
      await restart(i, newKey);
      say(`  ${names[i]} restarted with SEAL_KEYS=new`);
      await sleep(pace.betweenRestarts);
    }
    const rotation = await mark('rotation');
    report(rotation);
    for (const line of upstreamErrors(nginx, errorsBefore)) out(`  nginx: ${line}`);

    // 2. kill -9 of one instance mid-load, then its restart
    const victim = Math.min(1, count - 1);
    const victimAddress = (instances[victim] as InstanceProcess).address;
    say(`step 2: kill -9 of ${names[victim]} (${victimAddress}) under load, then its restart`);
    const logBefore = logLines(nginx).length;
    loadSend({ type: 'killed', upstream: victimAddress });
    await (instances[victim] as InstanceProcess).kill();
    await sleep(pace.afterKill);
    instances[victim] = await startInstance(APP_DIR, configOf(victim, newKey));
    say(`  ${names[victim]} restarted`);
    await sleep(pace.afterRestart);
    const inFlightAtKill = logLines(nginx)
      .slice(logBefore)
      .filter((line) => /^\S+ 50[24] /.test(line) && line.includes(victimAddress)).length;
    const killStep = await mark('kill -9');
    loadSend({ type: 'killed', upstream: null });
    report(killStep);
    out(`  requests in flight on ${names[victim]} when it was killed (nginx 502/504): ${inFlightAtKill}`);

    // 3. a tool added on each instance in turn; every listener (on every instance) hears each once
    say('step 3: a tool added on each instance; list_changed heard by the listeners of every instance');
    await until(() => listeners.every((l) => l.live), 15_000, 'every listener to be live again');
    await sleep(1000); // the list_changed of the restarts above settle first
    const before = listeners.map((l) => l.counts['notifications/tools/list_changed'] ?? 0);
    const endsBefore = listeners.map((l) => ({ ...l.ends }));
    const where = listeners.map((l) => label[l.upstream ?? ''] ?? '?');
    for (let i = 0; i < count; i++) {
      const response = await fetch(
        `http://${(instances[i] as InstanceProcess).address}/fleet/tools?name=added_on_${names[i]}`,
        {
          method: 'POST',
        },
      );
      if (!response.ok) throw new Error(`adding a tool on ${names[i]}: HTTP ${response.status}`);
    }
    const toolsExpected = listeners.length * count;
    const heard = () =>
      listeners.reduce(
        (sum, l, i) => sum + (l.counts['notifications/tools/list_changed'] ?? 0) - (before[i] ?? 0),
        0,
      );
    await until(() => heard() >= toolsExpected, 20_000, 'the list_changed notifications').catch(() => {});
    await sleep(500); // a duplicate would show now
    const toolsDelivered = heard();
    const perListener = listeners.map(
      (l, i) =>
        `${l.label}@${where[i]}=${(l.counts['notifications/tools/list_changed'] ?? 0) - (before[i] ?? 0)}`,
    );
    const toolStep = await mark('tools added');
    report(toolStep);
    out(`  list_changed per listener (of ${count} tools added, one per instance): ${perListener.join(' ')}`);
    out(`  delivered ${toolsDelivered}/${toolsExpected}`);
    if (toolsDelivered !== toolsExpected) {
      // Say why: streams that ended during the step (and how), and what the instances' buses warned about.
      const ended = listeners.map(
        (l, i) => `${l.label}: ${JSON.stringify(endsSince(endsBefore[i] ?? {}, l.ends))}`,
      );
      out(`  listen streams ended during the step: ${ended.join(' ')}`);
      for (const [i, it] of instances.entries()) {
        const log = it?.stderr().trim();
        if (log) out(`  ${names[i]} stderr (tail):\n${log.split('\n').slice(-12).join('\n')}`);
      }
    }

    // 4. a task created on one instance, answered on the next, completed as read on the third
    say('step 4: a task created on one instance, updated on another, completed on a third');
    const task = await crossInstanceTask(
      instances.map((it) => `http://${it.address}/mcp`),
      names,
    );
    for (const line of task.lines) out(`  ${line}`);
    const taskStep = await mark('task across instances');
    report(taskStep);

    // 5. 2025-11-25 sessions, pinned by Mcp-Session-Id
    say('step 5: 2025-11-25 sessions through nginx, pinned by Mcp-Session-Id');
    loadSend({ type: 'legacy', workers: Math.max(1, Math.floor(concurrency / 3)) });
    await sleep(pace.legacy);
    loadSend({ type: 'legacy', workers: 0 });
    const legacyStep = await mark('2025-11-25 sessions');
    report(legacyStep);

    // 6. the same load against one instance directly (the yardstick of nginx's cost)
    say(`step 6: the same load against ${names[0]} directly, without nginx`);
    loadSend({ type: 'target', url: `http://${(instances[0] as InstanceProcess).address}/mcp` });
    await sleep(pace.direct);
    const direct = await mark('one instance directly');
    loadSend({ type: 'target', url: entry });
    report(direct);

    // 7. steady again, then stop
    say('step 7: steady load through nginx, then stop');
    await sleep(pace.steady);
    const steady = await mark('steady', true);
    report(steady);
    await until(() => stoppedFlows > 0, 15_000, 'the load generator to stop').catch(() => {});

    // 8. the traces: every instance stops gracefully (exporting what it holds), then each traced flow is checked
    let traces: FleetReport['traces'];
    if (receiver !== undefined) {
      await Promise.allSettled(instances.map((it) => it.stop()));
      await sleep(500);
      const verdict = checkTraces(receiver.spans, loadTotals.traced, 'tools/call order_book');
      traces = { complete: verdict.complete, total: verdict.total, spread: verdict.spread };
      say(
        `traces: ${verdict.complete}/${verdict.total} 3-round flows form one trace (call span, a client span per round, each server round its child); ${verdict.spread} of them served by more than one instance; ${receiver.spans.length} spans received`,
      );
      for (const problem of verdict.problems) out(`  incomplete: ${problem}`);
      if (verdict.example !== undefined) {
        const file = options.traceHtml ?? join(tmpdir(), 'boomerang-fleet-trace.html');
        writeFileSync(
          file,
          waterfall(verdict.example, 'tools/call order_book through nginx: one trace, three rounds'),
        );
        out(`  waterfall of one flow: ${file}`);
      }
    }

    const through = summaries.filter((s) => s.step !== 'one instance directly');
    const total = (pick: (s: StepSummary) => number) => summaries.reduce((sum, s) => sum + pick(s), 0);
    const p99ThreeRound = loadTotals.p99ThreeRound;
    const p99ThreeRoundDirect = direct.latency.order_book?.p99 ?? 0;
    const notifications = {
      delivered: toolsDelivered + task.delivered,
      expected: toolsExpected + task.expected,
    };
    const killed = total((s) => s.killed);
    const other = total((s) => s.other);
    const switched = through.reduce(
      (acc, s) => ({ pairs: acc.pairs + s.switched.pairs, different: acc.different + s.switched.different }),
      { pairs: 0, different: 0 },
    );
    const line =
      `fleet: attempted=${total((s) => s.attempted)} completed=${total((s) => s.completed)} ` +
      `failed=${total((s) => s.failed)} (killed=${killed} other=${other}) ` +
      `notifications=${notifications.delivered}/${notifications.expected} p99-3round=${p99ThreeRound.toFixed(1)} ` +
      `p99-3round-direct=${p99ThreeRoundDirect.toFixed(1)} in-flight-at-kill=${inFlightAtKill} ` +
      `rounds-on-another-instance=${switched.different}/${switched.pairs} ` +
      `throughput=${(total((s) => s.completed) / total((s) => s.seconds)).toFixed(1)}/s ` +
      (traces === undefined
        ? ''
        : `traces-complete=${traces.complete}/${traces.total} traces-spread=${traces.spread} `) +
      `duration=${((performance.now() - started) / 1000).toFixed(0)}s`;
    out(line);
    return {
      steps: summaries,
      attempted: total((s) => s.attempted),
      completed: total((s) => s.completed),
      failed: total((s) => s.failed),
      killed,
      other,
      inFlightAtKill,
      notifications,
      p99ThreeRound,
      p99ThreeRoundDirect,
      traces,
      line,
      ok:
        other === 0 &&
        killed <= inFlightAtKill &&
        task.ok &&
        notifications.delivered === notifications.expected &&
        (traces === undefined || (traces.total > 0 && traces.complete === traces.total)),
    };
  } finally {
    await stopAll();
    running.delete(stopAll);
  }
}

/** How many streams ended since `before`, by why. */
function endsSince(before: Readonly<Record<string, number>>, now: Readonly<Record<string, number>>) {
  const since: Record<string, number> = {};
  for (const [why, n] of Object.entries(now))
    if (n !== (before[why] ?? 0)) since[why] = n - (before[why] ?? 0);
  return since;
}

/** The lines of one of nginx's logs (`access.log`, `error.log`). */
function logLines(nginx: NginxServer, name = 'access.log'): string[] {
  try {
    return readFileSync(join(nginx.dir, name), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** What nginx logged about its upstreams since line `from` of its error log (at most `max` lines). */
function upstreamErrors(nginx: NginxServer, from: number, max = 4): string[] {
  return logLines(nginx, 'error.log')
    .slice(from)
    .filter((line) => line.includes('upstream'))
    .slice(0, max)
    .map((line) => line.replace(/^\S+ \S+ \[\w+\] \d+#\d+: \*\d+ /, '').slice(0, 240));
}

async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(50);
  }
}

/**
 * Step 4: `print_run` called as a task through instance 1, its question read and answered (`tasks/update`) through
 * instance 2, its completion read through instance 3; a listener on every instance follows the task's
 * `notifications/tasks` and must see `completed` exactly once.
 */
async function crossInstanceTask(
  urls: readonly string[],
  names: readonly string[],
): Promise<{ ok: boolean; delivered: number; expected: number; lines: string[] }> {
  const at = (i: number) => urls[i % urls.length] as string;
  const who = (i: number) => names[i % names.length] as string;
  const capabilities = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };
  const transports = urls.map((url) => new StreamableHttpClientTransport(url));
  let id = 1;
  const call = async (i: number, method: string, params: Record<string, unknown>) => {
    const request: JSONRPCRequest = {
      jsonrpc: '2.0',
      id: `task-${id++}`,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      },
    };
    const response = await (transports[i % transports.length] as StreamableHttpClientTransport).request(
      request,
    );
    if ('error' in response) {
      throw new Error(`${method} on ${who(i)}: ${(response.error as { message: string }).message}`);
    }
    return response.result as Record<string, unknown>;
  };
  const lines: string[] = [];
  const followers: Listener[] = [];
  try {
    const created = await call(0, 'tools/call', {
      name: 'print_run',
      arguments: { title: 'Dune', copies: 30 },
    });
    const taskId = String(created.taskId);
    lines.push(`tools/call print_run on ${who(0)} → task ${taskId.slice(0, 8)}… ${String(created.status)}`);
    for (let i = 0; i < urls.length; i++) {
      followers.push(startListener(`T${i + 1}`, at(i), { taskIds: [taskId] }));
    }
    await until(() => followers.every((f) => f.live), 10_000, 'the task listeners');
    let task = await call(1, 'tasks/get', { taskId });
    const deadline = Date.now() + 15_000;
    while (task.status !== 'input_required' && Date.now() < deadline) {
      await sleep(50);
      task = await call(1, 'tasks/get', { taskId });
    }
    const keys = Object.keys((task.inputRequests as Record<string, unknown> | undefined) ?? {});
    lines.push(`tasks/get on ${who(1)} → ${String(task.status)} (${keys.join(', ')})`);
    const inputResponses = Object.fromEntries(
      keys.map((key) => [key, { action: 'accept', content: { approve: true } }]),
    );
    await call(1, 'tasks/update', { taskId, inputResponses });
    lines.push(`tasks/update on ${who(1)} answers ${keys.join(', ')}`);
    do {
      await sleep(50);
      task = await call(2, 'tasks/get', { taskId });
    } while (task.status !== 'completed' && task.status !== 'failed' && Date.now() < deadline);
    const result = task.result as { content?: { text?: string }[] } | undefined;
    const text = result?.content?.[0]?.text;
    lines.push(`tasks/get on ${who(2)} → ${String(task.status)}: ${text ?? JSON.stringify(task.error)}`);
    await sleep(300);
    // Each listener counts the task's status notifications; `completed` is the last, and must come once.
    const once = followers.map((f) => f.counts['notifications/tasks:completed'] ?? 0);
    lines.push(
      `notifications/tasks listeners: ${followers.map((f, i) => `${f.label}@${who(i)}=${JSON.stringify(f.counts)}`).join(' ')}`,
    );
    const delivered = once.reduce((a, b) => a + b, 0);
    return {
      ok: task.status === 'completed' && text === 'Printed 30 copies of "Dune".',
      delivered,
      expected: followers.length,
      lines,
    };
  } finally {
    await Promise.allSettled(followers.map((f) => f.stop()));
    await Promise.allSettled(transports.map((t) => t.close()));
  }
}
