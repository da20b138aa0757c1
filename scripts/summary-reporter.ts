import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one closing line `Tests: N passed, N failed, N skipped` after the run, the plain summary
 * that CI reads whatever the test runner, and how long the run took.
 */
export default class SummaryReporter implements Reporter {
  #started = performance.now();

  onInit(): void {
    this.#started = performance.now();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
    }
    failed += unhandledErrors.length;
    const seconds = Math.round((performance.now() - this.#started) / 1000);
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
    process.stdout.write(
      `Test files: ${testModules.length}, in ${Math.floor(seconds / 60)} min ${seconds % 60} s\n`,
    );
  }
}
