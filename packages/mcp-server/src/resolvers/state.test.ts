import { canonicalJson } from '@boomerang/seal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeState, encodeState, questionDigest, utf8Length } from './state.js';

describe('request state format', () => {
  it('round-trips recorded answers, and asked digests when present, in order', () => {
    const answers = new Map([
      ['r0', { q: 'qqq', a: { action: 'accept', content: { ok: true } } }],
      ['r2', { q: 'ppp', a: { action: 'decline' } }],
    ]);
    const text = encodeState({ answers });
    expect(text).toBe(
      '{"v":2,"answers":{"r0":{"q":"qqq","a":{"action":"accept","content":{"ok":true}}},"r2":{"q":"ppp","a":{"action":"decline"}}}}',
    );
    expect(decodeState(text)).toEqual({ answers });
    const asked = new Map([['r3', 'ddd']]);
    const round = encodeState({ answers, asked });
    expect(round).toBe(`${text.slice(0, -1)},"asked":{"r3":"ddd"}}`);
    expect(decodeState(round)).toEqual({ answers, asked });
  });

  it('reads anything malformed, or of another version, as empty, never throwing', () => {
    for (const text of [
      undefined,
      '',
      '{',
      'null',
      '[]',
      '{"v":1,"answers":{"r0":{"q":"x","a":1}},"asked":{}}',
      '{"v":3,"answers":{}}',
      '{"v":2,"answers":[]}',
      '{"v":2}',
      '{"v":2,"answers":{},"asked":[]}',
    ]) {
      expect(decodeState(text)).toEqual({ answers: new Map() });
    }
    const partial = decodeState(
      '{"v":2,"answers":{"r0":{"q":1,"a":2},"r1":{"q":"x"},"r2":{"q":"y","a":null}},"asked":{"r3":5,"r4":"z"}}',
    );
    expect(partial).toEqual({
      answers: new Map([['r2', { q: 'y', a: null }]]),
      asked: new Map([['r4', 'z']]),
    });
  });

  it('keeps a __proto__ key as data', () => {
    const decoded = decodeState('{"v":2,"answers":{"__proto__":{"q":"x","a":1}}}');
    expect(decoded.answers.get('__proto__')).toEqual({ q: 'x', a: 1 });
    expect(encodeState(decoded)).toContain('"__proto__":{"q":"x","a":1}');
  });

  it('survives any JSON answer, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (a, q) => {
        const state = { answers: new Map([['r0', { q, a }]]), asked: new Map([['r1', q]]) };
        const back = decodeState(encodeState(state));
        expect(back.answers.get('r0')?.q).toBe(q);
        expect(back.asked?.get('r1')).toBe(q);
        expect(JSON.stringify(back.answers.get('r0')?.a)).toBe(JSON.stringify(a));
      }),
    );
  });
});

describe('question digest', () => {
  it('is base64url of the first 16 bytes of SHA-256 over the canonical JSON of the request', async () => {
    const request = { method: 'roots/list', params: { b: 1, a: '\u00e9' } };
    const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonicalJson(request)));
    const expected = Buffer.from(hash).subarray(0, 16).toString('base64url');
    expect(questionDigest(request)).toBe(expected);
    expect(questionDigest({ method: 'roots/list' })).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('ignores key order, and distinguishes every other change', () => {
    const a = questionDigest({
      method: 'elicitation/create',
      params: { message: 'Go?', mode: 'form' },
    });
    const b = questionDigest({
      params: { mode: 'form', message: 'Go?' },
      method: 'elicitation/create',
    });
    const c = questionDigest({
      method: 'elicitation/create',
      params: { message: 'Go!', mode: 'form' },
    });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });

  it('canonical JSON sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: [{ d: 1, c: undefined, a: 2 }], a: null })).toBe(
      '{"a":null,"b":[{"a":2,"d":1}]}',
    );
  });
});

describe('utf8Length', () => {
  it('matches TextEncoder for any string, lone surrogates included', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => utf8Length(s) === encoder.encode(s).byteLength),
    );
    expect(utf8Length('\ud800')).toBe(3);
    expect(utf8Length('😀€a')).toBe(4 + 3 + 1);
  });
});
