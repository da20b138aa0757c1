// A free TCP port on 127.0.0.1, for the real servers tests start (PostgreSQL, Redis, nginx).
import { createServer } from 'node:net';

/** A port nothing listens on right now (the OS picks it; a server started at once gets it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
