import { Client } from '@boomerang/client';
import { connectInMemory } from '@boomerang/transport-memory';
import { describe, expect, it } from 'vitest';
import { clearAsLegacyHost, greeter } from './legacy.examples.js';

describe('serving 2025-11-25 clients', () => {
  it('runs the same resolver through a real elicitation/create mid-call', async () => {
    expect(await clearAsLegacyHost()).toEqual({ version: '2025-11-25', text: 'Deleted 0 notes' });
  });

  it('turns a hand-built round into server→client requests with the shim, in both eras', async () => {
    for (const protocol of ['2025-11-25', '2026-07-28'] as const) {
      const client = new Client(
        { name: 'host', version: '1.0.0' },
        { protocol, elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
      );
      await using _link = await connectInMemory(client, greeter);
      const result = await client.callTool('greet');
      expect(client.protocolVersion).toBe(protocol);
      expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    }
  });
});
