import { describe, expect, it } from 'vitest';
import { principalOf } from './principal.js';

describe('principalOf', () => {
  it.each([
    ['no auth: anonymous', undefined, null],
    [
      'the identity, never scopes',
      { clientId: 'app', subject: 'alice', scopes: ['a'] },
      ['app', null, 'alice'],
    ],
    ['the identity wins over the token', { issuer: 'https://as', token: 't' }, [null, 'https://as', null]],
    ['empty strings are absent', { clientId: '', subject: 'bob' }, [null, null, 'bob']],
    ['no identity: the token stands for the principal', { token: 't1', scopes: ['a'] }, { token: 't1' }],
    ['neither: no principal (callers fail closed)', { scopes: ['a'] }, undefined],
    ['an empty token is no token', { token: '', subject: '' }, undefined],
  ])('%s', (_, auth, expected) => {
    expect(principalOf(auth)).toEqual(expected);
  });

  it('tells two tokens apart where the identity tuple could not', () => {
    expect(principalOf({ token: 'alice-key' })).not.toEqual(principalOf({ token: 'mallory-key' }));
  });
});
