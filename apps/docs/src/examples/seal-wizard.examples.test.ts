import { describe, expect, it } from 'vitest';
import { wizard } from './seal-wizard.examples.js';

/** POSTs one step, with the cookie of the previous answer. */
async function step(visitor: string, fields: Record<string, string>, cookie?: string) {
  const response = await wizard(
    new Request('https://app.example.com/signup', {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: cookie === undefined ? {} : { cookie },
    }),
    visitor,
  );
  const setCookie = response.headers.get('set-cookie') ?? '';
  return { body: (await response.json()) as { next: string }, cookie: setCookie.split(';')[0] as string };
}

describe('a wizard whose state is a sealed cookie', () => {
  it('carries the progress from step to step', async () => {
    const one = await step('ada', { email: 'ada@example.com' });
    expect(one.body.next).toBe('plan');
    expect(one.cookie).toMatch(/^wizard=sl1_/);
    expect(one.cookie).not.toContain('ada@example.com');
    const two = await step('ada', { plan: 'pro' }, one.cookie);
    expect(two.body).toEqual({ next: 'done', progress: { email: 'ada@example.com', plan: 'pro' } });
  });

  it("starts over on a tampered cookie, or on another visitor's", async () => {
    const one = await step('ada', { email: 'ada@example.com' });
    const tampered = `${one.cookie.slice(0, -2)}${one.cookie.endsWith('A') ? 'B' : 'A'}A`;
    expect((await step('ada', { plan: 'pro' }, tampered)).body.next).toBe('email');
    expect((await step('bob', { plan: 'pro' }, one.cookie)).body.next).toBe('email');
  });
});
