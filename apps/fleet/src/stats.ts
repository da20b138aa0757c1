// What the load generator measures per step of the fleet script, and how the script prints it.

/** One finished flow. */
export interface FlowRecord {
  readonly kind: FlowKind;
  readonly ok: boolean;
  /** Wall time of the whole flow, ms. */
  readonly ms: number;
  /** The instance (`127.0.0.1:port`) that served each request of the flow, in order. */
  readonly upstreams: readonly string[];
  /** Why it failed (`http-502`, `connection`, `state-rejected`, `mcp-32603`, `wrong-result`, …). */
  readonly error?: string | undefined;
  /** The error's message and causes. */
  readonly detail?: string | undefined;
  /** The instance whose 502/504 (nginx: the instance went away mid-request) failed the flow. */
  readonly failedOn?: string | undefined;
  /** It failed on the killed instance (its request was in flight there when the instance was killed). */
  readonly killed?: boolean | undefined;
  /** The trace of the flow, when the run traces (the trace id its `traceparent` named). */
  readonly traceId?: string | undefined;
}

/** The flows the load generator runs. */
export type FlowKind = 'check_stock' | 'order_book' | 'legacy';

/** Rounds (requests) of each kind when it completes: `check_stock` 1, `order_book` 3; a legacy session varies. */
export const ROUNDS: Readonly<Record<FlowKind, number>> = { check_stock: 1, order_book: 3, legacy: 0 };

/** One step's figures. */
export interface StepSummary {
  readonly step: string;
  readonly seconds: number;
  readonly attempted: number;
  readonly completed: number;
  readonly failed: number;
  readonly killed: number;
  readonly other: number;
  /** Failures by kind of error. */
  readonly errors: Readonly<Record<string, number>>;
  /** The first few failures' messages, for the log. */
  readonly samples: readonly string[];
  /** Latency of completed flows per kind, ms. */
  readonly latency: Readonly<Partial<Record<FlowKind, { p50: number; p99: number; n: number }>>>;
  /** Completed flows per second. */
  readonly throughput: number;
  /** Requests served per instance (by `X-Fleet-Upstream`). */
  readonly perInstance: Readonly<Record<string, number>>;
  /** Consecutive rounds of one modern flow served by different instances, of all consecutive pairs. */
  readonly switched: { readonly pairs: number; readonly different: number };
  /** Legacy sessions whose every request went to one instance, of all legacy sessions that completed. */
  readonly pinned: { readonly sessions: number; readonly oneInstance: number };
}

/** The `q` quantile (0…1) of `samples`, nearest rank; 0 for none. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * q) - 1))] as number;
}

/** Sums up the flows of one step. */
export function summarize(step: string, seconds: number, records: readonly FlowRecord[]): StepSummary {
  const errors: Record<string, number> = {};
  const samples: string[] = [];
  const perInstance: Record<string, number> = {};
  const times: Partial<Record<FlowKind, number[]>> = {};
  const switched = { pairs: 0, different: 0 };
  const pinned = { sessions: 0, oneInstance: 0 };
  let completed = 0;
  let killed = 0;
  for (const record of records) {
    for (const upstream of record.upstreams) perInstance[upstream] = (perInstance[upstream] ?? 0) + 1;
    if (!record.ok) {
      const kind = record.error ?? 'other';
      errors[kind] = (errors[kind] ?? 0) + 1;
      if (samples.length < 3) {
        samples.push(
          `${record.kind} ${kind} after ${record.upstreams.join(' → ') || 'no answer'}: ${record.detail ?? ''}`,
        );
      }
      if (record.killed === true) killed++;
      continue;
    }
    completed++;
    const durations = times[record.kind] ?? [];
    durations.push(record.ms);
    times[record.kind] = durations;
    if (record.kind === 'legacy') {
      pinned.sessions++;
      if (new Set(record.upstreams).size === 1) pinned.oneInstance++;
    } else {
      for (let i = 1; i < record.upstreams.length; i++) {
        switched.pairs++;
        if (record.upstreams[i] !== record.upstreams[i - 1]) switched.different++;
      }
    }
  }
  const latency: Partial<Record<FlowKind, { p50: number; p99: number; n: number }>> = {};
  for (const [kind, samples] of Object.entries(times) as [FlowKind, number[]][]) {
    latency[kind] = { p50: quantile(samples, 0.5), p99: quantile(samples, 0.99), n: samples.length };
  }
  const failed = records.length - completed;
  return {
    step,
    seconds,
    attempted: records.length,
    completed,
    failed,
    killed,
    other: failed - killed,
    errors,
    samples,
    latency,
    throughput: seconds > 0 ? completed / seconds : 0,
    perInstance,
    switched,
    pinned,
  };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The report lines of one step. */
export function formatStep(summary: StepSummary, names: Readonly<Record<string, string>>): string[] {
  const errors = Object.entries(summary.errors)
    .map(([kind, n]) => `${kind}=${n}`)
    .join(' ');
  const latency = Object.entries(summary.latency)
    .map(([kind, l]) => `${kind} p50 ${ms(l.p50)} p99 ${ms(l.p99)} (${l.n})`)
    .join('; ');
  const instances = Object.entries(summary.perInstance)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([upstream, n]) => `${names[upstream] ?? upstream}=${n}`)
    .join(' ');
  const lines = [
    `  flows: ${summary.completed} ok, ${summary.failed} failed (killed=${summary.killed} other=${summary.other})` +
      `${errors === '' ? '' : ` errors: ${errors}`}; ${summary.throughput.toFixed(1)} flows/s over ${summary.seconds.toFixed(1)} s`,
    `  latency: ${latency === '' ? 'no completed flow' : latency}`,
    `  requests per instance: ${instances === '' ? 'none' : instances}` +
      (summary.switched.pairs > 0
        ? `; consecutive rounds on different instances: ${summary.switched.different}/${summary.switched.pairs}`
        : ''),
  ];
  for (const sample of summary.samples) lines.push(`  failure: ${sample}`);
  if (summary.pinned.sessions > 0) {
    lines.push(
      `  2025-11-25 sessions: ${summary.pinned.oneInstance}/${summary.pinned.sessions} served by one instance throughout`,
    );
  }
  return lines;
}
