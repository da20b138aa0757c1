import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { roundTrip } from './wire.examples.js';

/** The fixtures the wire page includes, in the order of the exchange. */
const FIXTURES = [
  'wire-1-request.json',
  'wire-2-input-required.json',
  'wire-3-retry.json',
  'wire-4-complete.json',
];
const SEALED = 'sl1_… (the sealed state: a few hundred characters, new every round)';

/** The sealed state is new every run: the page shows a placeholder in its place. */
function normalise(message: unknown): unknown {
  return JSON.parse(JSON.stringify(message, (key, value) => (key === 'requestState' ? SEALED : value)));
}

describe('the round trip on the wire', () => {
  it('sends and receives exactly the messages the page shows', async () => {
    const messages = await roundTrip();
    const asked = messages[1] as { result: { inputRequests: object; requestState?: string } };
    // One question, nothing recorded yet: no state; the key names the resolver and the exact question.
    expect(asked.result).not.toHaveProperty('requestState');
    expect(Object.keys(asked.result.inputRequests)).toEqual([
      expect.stringMatching(/^r0\.[A-Za-z0-9_-]{22}$/),
    ]);
    FIXTURES.forEach((name, i) => {
      const file = new URL(`./${name}`, import.meta.url);
      if (process.env.DOCS_FIXTURES === 'update') {
        writeFileSync(file, `${JSON.stringify(normalise(messages[i]), null, 2)}\n`);
      }
      expect(normalise(messages[i]), `${name} is out of date (DOCS_FIXTURES=update rewrites it)`).toEqual(
        JSON.parse(readFileSync(file, 'utf8')),
      );
    });
  });
});
