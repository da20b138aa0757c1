// The official v1 Client (2025-11-25: `initialize`, then server→client requests) against a Boomerang McpServer
// (src/fixtures/boomerang-server.mjs). Written once, run over every transport that can carry a 2025-11-25
// session: `v1ClientSuite('stdio', factory)` in stdio.test.ts; an HTTP variant passes its own factory.
import { describe } from 'vitest';
import { type BoomerangPeerFactory, useV1Clients } from './v1-client-harness.js';
import { v1ClientQuestionTests } from './v1-client-questions.js';
import { v1ClientSessionTests } from './v1-client-session.js';

export type { BoomerangPeer, BoomerangPeerFactory, BoomerangServerOptions } from './v1-client-harness.js';

/** Registers the suite: every test starts its own server and stops it (the process must be gone). */
export function v1ClientSuite(name: string, factory: BoomerangPeerFactory): void {
  describe(`official v1 Client (1.32.2) → Boomerang McpServer over ${name}`, () => {
    const connect = useV1Clients(factory);
    v1ClientSessionTests(connect);
    v1ClientQuestionTests(connect);
  });
}
