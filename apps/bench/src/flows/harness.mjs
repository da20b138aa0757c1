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
 * Returns one slice, `{ latencies, seconds, cpuMs, errors, firstError }`; {@link summarize} combines slices.
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
  return {
    latencies: latencies.slice(0, count),
    seconds: (t1 - t0) / 1000,
    cpuMs: (cpu.user + cpu.system) / 1000,
    errors,
    firstError,
  };
}

/**
 * Combines measured slices of one side of one cell into
 * `{ flows, seconds, flowsPerSec, p50, p99, cpuMsPerFlow, errors, firstError }`.
 */
export function summarize(slices) {
  const flows = slices.reduce((n, s) => n + s.latencies.length, 0);
  const seconds = slices.reduce((n, s) => n + s.seconds, 0);
  const cpuMs = slices.reduce((n, s) => n + s.cpuMs, 0);
  const sorted = new Float64Array(flows);
  let at = 0;
  for (const s of slices) {
    sorted.set(s.latencies, at);
    at += s.latencies.length;
  }
  sorted.sort();
  return {
    flows,
    seconds,
    flowsPerSec: flows / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    cpuMsPerFlow: flows === 0 ? Number.NaN : cpuMs / flows,
    errors: slices.reduce((n, s) => n + s.errors, 0),
    firstError: slices.find((s) => s.firstError !== undefined)?.firstError,
  };
}

/** Nearest-rank percentile of an ascending array; NaN when empty. */
export function percentile(sorted, q) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}
