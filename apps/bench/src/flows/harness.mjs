// Measurement loop shared by both sides of the flow benchmark: N workers share one connected client and
// run flows back to back; a warm-up phase is discarded, then a fixed window is measured for throughput,
// latency percentiles and process CPU time.
import { performance } from 'node:perf_hooks';

/**
 * Runs `flow` on `concurrency` workers: `warmupMs` discarded, then `durationMs` measured.
 * A flow is one complete call as its caller sees it (all rounds included); `flow` must throw on a wrong result.
 * Throughput counts flows that *complete* inside the window, and CPU is `process.cpuUsage()` over the same window.
 *
 * Phases follow the clock read at each flow boundary, never a timer: an in-memory pair that answers on
 * microtasks alone (the official SDK's) never yields to the timer queue, so a `setTimeout` would never fire.
 * Returns `{ flows, seconds, flowsPerSec, p50, p99, cpuMsPerFlow, errors, firstError }`.
 */
export async function measure(flow, { concurrency, warmupMs, durationMs }) {
  const measureAt = performance.now() + warmupMs;
  const stopAt = measureAt + durationMs;
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let errors = 0;
  let firstError;
  let t0 = 0;
  let t1 = 0;
  let cpu0;
  let cpu;

  /** Moves the window forward at a flow boundary; returns false once the window has closed. */
  const tick = (now) => {
    if (cpu0 === undefined && now >= measureAt) {
      cpu0 = process.cpuUsage();
      t0 = now;
    }
    if (cpu === undefined && now >= stopAt) {
      cpu = process.cpuUsage(cpu0);
      t1 = now;
    }
    return cpu === undefined;
  };

  const record = (ms) => {
    if (count === latencies.length) {
      const bigger = new Float64Array(latencies.length * 2);
      bigger.set(latencies);
      latencies = bigger;
    }
    latencies[count++] = ms;
  };

  const worker = async (id) => {
    let i = 0;
    while (tick(performance.now())) {
      const started = performance.now();
      try {
        await flow(id, i++);
      } catch (error) {
        errors++;
        firstError ??= error;
        if (errors > 100) break;
        continue;
      }
      const ended = performance.now();
      if (tick(ended) && cpu0 !== undefined) record(ended - started);
    }
  };

  await Promise.all(Array.from({ length: concurrency }, (_, id) => worker(id)));
  if (cpu === undefined) tick(Math.max(performance.now(), stopAt)); // every worker stopped on errors
  const seconds = (t1 - t0) / 1000;
  const sorted = latencies.subarray(0, count).sort();
  return {
    flows: count,
    seconds,
    flowsPerSec: count / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    cpuMsPerFlow: count === 0 ? Number.NaN : (cpu.user + cpu.system) / 1000 / count,
    errors,
    firstError,
  };
}

/** Nearest-rank percentile of an ascending array; NaN when empty. */
export function percentile(sorted, q) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}
