import { describe, expect, it } from 'vitest';
import { loopbackRedirect } from './node.js';

describe('loopbackRedirect', () => {
  it('listens on 127.0.0.1 and resolves to the callback the browser lands on', async () => {
    const opened: URL[] = [];
    await using loopback = await loopbackRedirect({
      open: async (url) => {
        opened.push(url);
        // Stand in for the browser: the AS redirects it straight back to the loopback callback.
        const back = new URL(loopback.redirectUri);
        back.searchParams.set('code', 'c');
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        void fetch(back).then((r) => r.text());
      },
    });
    expect(loopback.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const returned = new URL(await loopback.authorize(new URL('https://as.example/authorize?state=s1')));
    expect(returned.pathname).toBe('/callback');
    expect(returned.searchParams.get('state')).toBe('s1');
    expect(opened).toHaveLength(1);
    const stray = await fetch(new URL('/elsewhere', loopback.redirectUri));
    expect(stray.status).toBe(404);
  });

  it('times out when no callback arrives', async () => {
    await using loopback = await loopbackRedirect({ open: () => {}, timeoutMs: 20 });
    await expect(loopback.authorize(new URL('https://as.example/authorize'))).rejects.toThrow(/within 20 ms/);
  });
});
