// The migration guide's before/after: the codemod turns before.examples.ts (official SDK v2) into
// after.examples.ts (both formatted by biome: the codemod writes code, your formatter lays it out), and the after file,
// served over Streamable HTTP, answers the Boomerang client, its confirmation asked as an MRTR round.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@boomerang/client';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { listen } from '@boomerang/transport-http/node';
import { describe, expect, it } from 'vitest';
import { migrateText } from '../index.js';
import { handler } from './after.examples.js';

const read = (name: string) => readFileSync(join(import.meta.dirname, name), 'utf8');
/** The code from the first import on, formatted by the repository's biome, its region markers out. */
function code(text: string): string {
  const biome = join(import.meta.dirname, '../../../../node_modules/.bin/biome');
  const formatted = execFileSync(biome, ['format', '--stdin-file-path=example.ts'], {
    input: text,
    encoding: 'utf8',
  });
  return formatted
    .slice(formatted.indexOf('import '))
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('// #'))
    .join('\n');
}

describe('the migration guide example', () => {
  it('before.examples.ts migrates to after.examples.ts, with nothing left for you', () => {
    const migration = migrateText(
      read('before.examples.ts'),
      join(import.meta.dirname, 'before.examples.ts'),
    );
    expect(code(migration.after)).toBe(code(read('after.examples.ts')));
    expect(migration.notes.filter((n) => n.kind === 'manual')).toEqual([]);
  }, 120_000);

  it('the migrated server answers over HTTP, asking its confirmation as a round', async () => {
    await using endpoint = await listen(handler, { port: 0 });
    const asked: string[] = [];
    const client = new Client(
      { name: 'host', version: '1.0.0' },
      {
        elicitation: async (params) => {
          asked.push(params.message);
          return { action: 'accept', content: { confirm: true } };
        },
      },
    );
    await client.connect(new StreamableHttpClientTransport(endpoint.url));
    try {
      const status = await client.callTool('order_status', { id: 'A-1' });
      expect(status.content).toEqual([{ type: 'text', text: 'shipped' }]);
      const order = await client.readResource('orders://A-1');
      expect(order.contents).toEqual([{ uri: 'orders://A-1', text: '{"item":"Dune","status":"shipped"}' }]);
      const prompt = await client.getPrompt('complain', { id: 'A-1' });
      expect(prompt.messages).toHaveLength(1);
      const cancelled = await client.callTool('cancel_order', { id: 'A-1' });
      expect(cancelled.content).toEqual([{ type: 'text', text: 'order A-1 cancelled' }]);
      expect(asked).toEqual(['Cancel order A-1?']);
    } finally {
      await client.close();
    }
  });
});
