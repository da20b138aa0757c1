// @boomerang/testing from its tarball: scripted answers and per-round records, asserted with node:assert.
import assert from 'node:assert/strict';
import { accept, connectTestClient } from '@boomerang/testing';
import { orders } from './orders.js';

await using t = await connectTestClient(orders, {
  answers: [{ question: /^Order /, answer: accept({ ok: true }) }],
});
const result = await t.client.callTool('order', { item: 'tea' });
assert.deepEqual(result.content, [{ type: 'text', text: 'Ordered tea' }]);
assert.equal(t.lastCall?.rounds.length, 2);
assert.deepEqual(
  Object.values(t.lastCall?.asked(1) ?? {}).map((q) => q.method === 'elicitation/create' && q.params.message),
  ['Order tea?'],
);
console.log('harness ok');
