// The deprecated `client.session` shim: what the tests outside this package that still use it rely on.
import { inputRequired, McpError } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { askFor, harness, script, textResult } from './test-support/fake-server.js';

describe('client.session (deprecated: use start / resume)', () => {
  it('allowInputRequired: one request, its InputRequiredResult as is; the next round from the given inputs', async () => {
    const asking = inputRequired({ inputRequests: { q: askFor('q') }, requestState: 's1' });
    const prompt = { resultType: 'complete', messages: [] };
    await using h = await harness(script(asking, prompt, asking));
    expect(await h.client.session.callTool('t', { a: 1 }, { allowInputRequired: true })).toEqual(asking);
    const answers = { q: { action: 'decline' } } as const;
    const next = { allowInputRequired: true, inputResponses: answers, requestState: 's1' } as const;
    expect(await h.client.session.getPrompt('p', {}, next)).toEqual(prompt);
    expect(h.server.requests[1]?.params).toMatchObject({
      name: 'p',
      inputResponses: answers,
      requestState: 's1',
    });
    expect(await h.client.session.readResource('file:///r', { allowInputRequired: true })).toEqual(asking);
  });

  it('without allowInputRequired, the automatic loop; server errors stay McpError', async () => {
    await using h = await harness(
      script(inputRequired({ requestState: 's' }), textResult('looped'), () => {
        throw new McpError(-32602, 'Invalid or expired requestState');
      }),
      { sleep: async () => {} },
    );
    expect(await h.client.session.callTool('t')).toEqual(textResult('looped'));
    const refused = h.client.session.callTool('t', {}, { allowInputRequired: true, requestState: 'x' });
    await expect(refused).rejects.toBeInstanceOf(McpError);
  });
});
