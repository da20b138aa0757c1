import type { ChildProcess } from 'node:child_process';
import type { StdioClientTransport } from '../src/index.js';

/**
 * Every process a test starts, so `afterEach(() => processes.stopAll())` leaves none behind: transports are
 * killed (`SIGKILL`, no grace) and closed, raw children killed.
 */
export class Processes {
  #transports: StdioClientTransport[] = [];
  #children: ChildProcess[] = [];

  /** Registers a transport (returned as is). */
  transport<T extends StdioClientTransport>(transport: T): T {
    this.#transports.push(transport);
    return transport;
  }

  /** Registers a raw child process (returned as is). */
  child<T extends ChildProcess>(child: T): T {
    this.#children.push(child);
    return child;
  }

  async stopAll(): Promise<void> {
    const transports = this.#transports.splice(0);
    const children = this.#children.splice(0);
    for (const transport of transports) {
      if (transport.pid !== undefined && transport.exit === undefined) kill(transport.pid);
    }
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) kill(child.pid);
    }
    await Promise.allSettled(transports.map((transport) => transport.close()));
  }
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
