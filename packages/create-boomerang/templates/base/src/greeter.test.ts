// The tool's tests, run with Node's own test runner on the compiled files (`npm test`). @boomerang/testing
// connects a client to the server in memory, answers its questions from a script and records every round.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accept, connectTestClient, decline } from '@boomerang/testing';
import { server } from './greeter.js';

test('greet asks for the name once, then greets', async () => {
  const t = await connectTestClient(server, {
    answers: [{ question: /your name/, answer: accept({ name: 'Ada' }) }],
  });
  try {
    const result = await t.client.callTool('greet', { greeting: 'Hi' });
    assert.deepEqual(result.content, [{ type: 'text', text: 'Hi, Ada!' }]);
    assert.equal(t.lastCall?.rounds.length, 2); // the question, then the retry with the answer
  } finally {
    await t.close();
  }
});

test('greet fails with an error the model can read when the user declines', async () => {
  const t = await connectTestClient(server, { answers: [{ question: /your name/, answer: decline() }] });
  try {
    const result = await t.client.callTool('greet', {});
    assert.equal(result.isError, true);
  } finally {
    await t.close();
  }
});
