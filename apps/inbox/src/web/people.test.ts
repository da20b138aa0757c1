// Sign-in links, sessions and CSRF tokens: sealed, purpose-bound, expiring, refused quietly when forged, and a
// session revoked by signing out.
import { describe, expect, it } from 'vitest';
import { manualClock } from '../test-support/flows.js';
import { createPeople, SESSION_COOKIE } from './people.js';

const key = new Uint8Array(32).fill(7);
const withCookie = (setCookie: string) =>
  new Request('http://127.0.0.1/', { headers: { cookie: `theme=dark; ${setCookie.split(';')[0]}` } });

describe('createPeople', () => {
  it('a sign-in link names its person; it trades for a session cookie that names them too', async () => {
    const people = createPeople({ names: ['alice', 'bob'], keys: [key] });
    const path = people.signInPath('alice');
    expect(path).toMatch(/^\/sign-in\?token=sl1_/);
    const token = new URL(path, 'http://x').searchParams.get('token') as string;
    expect(people.personFromSignIn(token)).toBe('alice');
    const cookie = people.sessionCookie('alice', false);
    expect(cookie).toMatch(
      new RegExp(`^${SESSION_COOKIE}=sl1_[^;]+; Path=/; HttpOnly; SameSite=Strict; Max-Age=43200$`),
    );
    expect(people.sessionCookie('alice', true)).toMatch(/; Secure$/);
    expect(await people.personOf(withCookie(cookie))).toBe('alice');
    expect(await people.personOf(new Request('http://127.0.0.1/'))).toBeUndefined();
    expect(people.endSessionCookie()).toBe(
      `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`,
    );
  });

  it('no token stands in for another: a sign-in token is no session, a session is no CSRF token', async () => {
    const people = createPeople({ names: ['alice'], keys: [key] });
    const signIn = new URL(people.signInPath('alice'), 'http://x').searchParams.get('token') as string;
    const session = (people.sessionCookie('alice', false).split(';')[0] as string).split('=')[1] as string;
    const csrf = people.csrfToken('alice');
    expect(await people.personOf(withCookie(`${SESSION_COOKIE}=${signIn}`))).toBeUndefined();
    expect(await people.personOf(withCookie(`${SESSION_COOKIE}=${csrf}`))).toBeUndefined();
    expect(people.personFromSignIn(session)).toBeUndefined();
    expect(people.checkCsrf('alice', session)).toBe(false);
    expect(people.checkCsrf('alice', csrf)).toBe(true);
    expect(people.checkCsrf('bob', csrf)).toBe(false);
    expect(people.checkCsrf('alice', null)).toBe(false);
  });

  it('refuses forged, foreign, expired and garbage tokens without throwing', () => {
    const clock = manualClock();
    const people = createPeople({ names: ['alice'], keys: [key], clock: clock.read });
    const other = createPeople({ names: ['alice'], keys: [new Uint8Array(32).fill(8)] });
    const token = new URL(people.signInPath('alice'), 'http://x').searchParams.get('token') as string;
    expect(other.personFromSignIn(token)).toBeUndefined();
    expect(people.personFromSignIn(`${token.slice(0, -3)}AAA`)).toBeUndefined();
    for (const junk of ['', 'x', '%%%', 'sl1_'.padEnd(5000, 'A')])
      expect(people.personFromSignIn(junk)).toBeUndefined();
    clock.now += 7 * 24 * 3600 * 1000;
    expect(people.personFromSignIn(token)).toBeUndefined();
  });

  it('a token for somebody no longer on the list opens nothing', async () => {
    const before = createPeople({ names: ['alice', 'carol'], keys: [key] });
    const after = createPeople({ names: ['alice'], keys: [key] });
    expect(await after.personOf(withCookie(before.sessionCookie('carol', false)))).toBeUndefined();
  });

  it('ending a session revokes it: a copy of its cookie opens nothing after; other sessions stay open', async () => {
    const clock = manualClock();
    const people = createPeople({ names: ['alice'], keys: [key], clock: clock.read });
    const cookie = people.sessionCookie('alice', false);
    const laptop = withCookie(cookie);
    const stolen = withCookie(cookie); // the same cookie, copied before she signed out
    const phone = withCookie(people.sessionCookie('alice', false)); // another session of hers
    expect(await people.personOf(stolen)).toBe('alice');
    await people.endSession(laptop);
    expect(await people.personOf(laptop)).toBeUndefined();
    expect(await people.personOf(stolen)).toBeUndefined();
    expect(await people.personOf(phone)).toBe('alice');
    // Still revoked an instant before the cookie would have expired anyway.
    clock.now += 12 * 3600 * 1000 - 1;
    expect(await people.personOf(stolen)).toBeUndefined();
    await people.endSession(new Request('http://127.0.0.1/')); // no cookie: nothing to revoke
  });

  it.each<[string, string[]]>([
    ['no one', []],
    ['a name with a space', ['al ice']],
    ['a name with markup', ['<b>']],
    ['the same name twice', ['bob', 'bob']],
  ])('throws TypeError for %s', (_, names) => {
    expect(() => createPeople({ names })).toThrow(TypeError);
  });

  it('signInPath throws RangeError for somebody not on the list', () => {
    expect(() => createPeople({ names: ['alice'] }).signInPath('mallory')).toThrow(RangeError);
  });
});
