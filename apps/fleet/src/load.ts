#!/usr/bin/env node
// The fleet's load generator, a process of its own (forked by the fleet script, talking over IPC): `concurrency`
// workers run MRTR flows back to back against the target URL (nginx, or one instance directly), and every step of
// the script gets its own figures. Bounded: it stops by itself after `maxSeconds` or `maxFlows`.
//
// Messages in:  { type: 'start', url, concurrency, maxSeconds, maxFlows }   { type: 'target', url }
//               { type: 'legacy', workers }   { type: 'killed', upstream | null }   { type: 'mark', step }
//               { type: 'stop', step }
// Messages out: { type: 'started' } once the first flow ended; { type: 'summary', summary } after each mark and
//               stop; then { type: 'stopped', flows, p99ThreeRound, traced } (the p99 of every completed
//               `order_book` through the start URL; with FLEET_OTLP_URL, the trace ids of those flows outside the
//               kill step, once every span was exported).
import { FlowWorker } from './flows.js';
import { type FlowKind, type FlowRecord, quantile, summarize } from './stats.js';
import { startTracing } from './telemetry.js';

interface Start {
  readonly type: 'start';
  readonly url: string;
  readonly concurrency: number;
  readonly maxSeconds: number;
  readonly maxFlows: number;
}
type Message =
  | Start
  | { readonly type: 'target'; readonly url: string }
  | { readonly type: 'legacy'; readonly workers: number }
  | { readonly type: 'killed'; readonly upstream: string | null }
  | { readonly type: 'mark'; readonly step: string }
  | { readonly type: 'stop'; readonly step: string };

const send = (message: object) => process.send?.(message);

let target = '';
let legacyWorkers = 0;
let killed: string | null = null;
let stopping = false;
let records: FlowRecord[] = [];
let windowStart = performance.now();
let flows = 0;
let running: Promise<void> | undefined;
let started = false;
let entry = '';
/** Every completed `order_book` through the entry URL (nginx), for the run's p99. */
const threeRound: number[] = [];
/**
 * The completed `order_book` flows through nginx outside the kill step (when tracing): their trace ids, when they
 * ended and where their rounds ran.
 */
let traced: { readonly traceId: string; readonly at: number; readonly upstreams: readonly string[] }[] = [];
/** How long an instance may hold spans it has not exported yet (its batch delay, with a margin), ms. */
const UNEXPORTED_MS = 1_000;
/** Tracing to the fleet's receiver, when FLEET_OTLP_URL is set. */
const tracing = startTracing('fleet-load', 'load', process.env.FLEET_OTLP_URL);

function mark(step: string): void {
  const now = performance.now();
  send({ type: 'summary', summary: summarize(step, (now - windowStart) / 1000, records) });
  records = [];
  windowStart = now;
}

async function work(index: number, limit: { maxFlows: number; until: number }): Promise<void> {
  const worker = new FlowWorker(tracing !== undefined);
  try {
    for (let n = index; !stopping; n++) {
      if (flows >= limit.maxFlows || Date.now() > limit.until) {
        stopping = true;
        break;
      }
      flows++;
      const kind: FlowKind = index < legacyWorkers ? 'legacy' : n % 2 === 0 ? 'order_book' : 'check_stock';
      const url = target;
      const record = await worker.run(kind, url, n);
      if (record.ok && kind === 'order_book' && url === entry) {
        threeRound.push(record.ms);
        // A kill -9 loses the spans the killed instance had not exported yet: its step is left out.
        if (record.traceId !== undefined && killed === null) {
          traced.push({ traceId: record.traceId, at: performance.now(), upstreams: record.upstreams });
        }
      }
      const failedOnKilled = !record.ok && killed !== null && record.failedOn === killed;
      records.push(failedOnKilled ? { ...record, killed: true } : record);
      if (!started) {
        started = true;
        send({ type: 'started' });
      }
    }
  } finally {
    await worker.close();
  }
}

process.on('message', (message: Message) => {
  switch (message.type) {
    case 'start': {
      target = message.url;
      entry = message.url;
      windowStart = performance.now();
      const limit = { maxFlows: message.maxFlows, until: Date.now() + message.maxSeconds * 1000 };
      running = Promise.all(
        Array.from({ length: message.concurrency }, (_, index) => work(index, limit)),
      ).then(() => {});
      break;
    }
    case 'target':
      target = message.url;
      break;
    case 'legacy':
      legacyWorkers = message.workers;
      break;
    case 'killed': {
      killed = message.upstream;
      // The instance about to be killed may not have exported the spans of flows it served just now.
      const victim = message.upstream;
      const since = performance.now() - UNEXPORTED_MS;
      if (victim !== null) traced = traced.filter((t) => t.at < since || !t.upstreams.includes(victim));
      break;
    }
    case 'mark':
      mark(message.step);
      break;
    case 'stop':
      stopping = true;
      void (running ?? Promise.resolve()).then(async () => {
        mark(message.step);
        await tracing?.shutdown().catch(() => {}); // every span exported before the run reads the traces
        const traceIds = traced.map((t) => t.traceId);
        send({ type: 'stopped', flows, p99ThreeRound: quantile(threeRound, 0.99), traced: traceIds });
        process.disconnect?.();
      });
      break;
  }
});
// The parent went away: stop at once.
process.on('disconnect', () => {
  stopping = true;
  setTimeout(() => process.exit(0), 2000).unref();
});
