#!/usr/bin/env node
// The fleet's load generator, a process of its own (forked by the fleet script, talking over IPC): `concurrency`
// workers run MRTR flows back to back against the target URL (nginx, or one instance directly), and every step of
// the script gets its own figures. Bounded: it stops by itself after `maxSeconds` or `maxFlows`.
//
// Messages in:  { type: 'start', url, concurrency, maxSeconds, maxFlows }   { type: 'target', url }
//               { type: 'legacy', workers }   { type: 'killed', upstream | null }   { type: 'mark', step }
//               { type: 'stop', step }
// Messages out: { type: 'started' } once the first flow ended; { type: 'summary', summary } after each mark and
//               stop; then { type: 'stopped', flows,
//               p99ThreeRound } (the p99 of every completed `order_book` through the start URL).
import { FlowWorker } from './flows.js';
import { type FlowKind, type FlowRecord, quantile, summarize } from './stats.js';

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

function mark(step: string): void {
  const now = performance.now();
  send({ type: 'summary', summary: summarize(step, (now - windowStart) / 1000, records) });
  records = [];
  windowStart = now;
}

async function work(index: number, limit: { maxFlows: number; until: number }): Promise<void> {
  const worker = new FlowWorker();
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
      if (record.ok && kind === 'order_book' && url === entry) threeRound.push(record.ms);
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
    case 'killed':
      killed = message.upstream;
      break;
    case 'mark':
      mark(message.step);
      break;
    case 'stop':
      stopping = true;
      void (running ?? Promise.resolve()).then(() => {
        mark(message.step);
        send({ type: 'stopped', flows, p99ThreeRound: quantile(threeRound, 0.99) });
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
