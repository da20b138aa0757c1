// Every process a test starts is stopped: `waitForExit` checks that a child really went away after its client
// closed, and kills it (then fails the test) when it lingers.

/** True while a process with this pid exists (and may be signalled by us). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Resolves once process `pid` is gone; after `timeoutMs` it is sent SIGKILL and the promise rejects, naming
 * `what`, so that a server that ignores its client's close fails the test instead of outliving the run.
 */
export async function waitForExit(pid: number | undefined, what: string, timeoutMs = 8_000): Promise<void> {
  if (pid === undefined) throw new Error(`${what}: no process id (was it ever started?)`);
  const deadline = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      throw new Error(`${what} (pid ${pid}) was still running ${timeoutMs} ms after its client closed`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
