// One fuzz target: a fast-check property over one surface, and the runner that checks it at any number of cases
// and measures its rate. The same targets run at 2,000 cases in the test suite and at 10⁶ in `pnpm fuzz`.
import fc from 'fast-check';

/** A property to check, built fresh for each run (its fixtures, servers and counters included). */
export interface FuzzTarget {
  /** What is fuzzed, e.g. `parseMessage`. */
  readonly name: string;
  /** What must hold for every generated case. */
  readonly claim: string;
  /** Builds the property and whatever it needs; `dispose` releases it after the run. */
  setup(): FuzzRun;
}

/** A built property and its clean-up. */
export interface FuzzRun {
  readonly property: fc.IProperty<never> | fc.IAsyncProperty<never>;
  dispose?(): Promise<void> | void;
}

/** What one run of a target found. */
export interface FuzzReport {
  readonly name: string;
  /** Cases run (fewer than asked only when one failed). */
  readonly cases: number;
  readonly seconds: number;
  readonly casesPerSecond: number;
  /** fast-check's report of the failure (counterexample, seed, path to replay it), or `undefined`. */
  readonly failure: string | undefined;
}

/** Options of {@link runTarget}. */
export interface FuzzRunOptions {
  /** Cases to run. */
  readonly cases: number;
  /** fast-check seed, to replay a run (default: random). */
  readonly seed?: number | undefined;
}

/** Runs `target` for `options.cases` cases and reports its rate, and its failure if it has one. */
export async function runTarget(target: FuzzTarget, options: FuzzRunOptions): Promise<FuzzReport> {
  const run = target.setup();
  const parameters = {
    numRuns: options.cases,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
  };
  const start = performance.now();
  try {
    const details = await fc.check(run.property as fc.IAsyncProperty<never>, parameters);
    const seconds = (performance.now() - start) / 1000;
    const cases = details.numRuns;
    return {
      name: target.name,
      cases,
      seconds,
      casesPerSecond: cases / seconds,
      failure: details.failed ? failureOf(details) : undefined,
    };
  } finally {
    await run.dispose?.();
  }
}

/** fast-check's report of a failed run, with the message of the error the property threw. */
function failureOf(details: fc.RunDetails<never>): string {
  const error = details.errorInstance;
  const cause = error instanceof Error ? error.message : String(error);
  return `${fc.defaultReportMessage(details) ?? 'failed'}\nError: ${cause}`;
}
