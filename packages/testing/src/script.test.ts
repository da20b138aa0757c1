import type { InputRequestContext } from '@boomerang/client';
import type { InputRequest } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { accept, assistantMessage, decline, roots } from './answers.js';
import { questionText, scriptedCallbacks } from './script.js';

const ctx = (over: Partial<InputRequestContext> = {}): InputRequestContext =>
  ({
    method: 'tools/call',
    name: 'tool',
    key: 'q',
    round: 1,
    signal: new AbortController().signal,
    ...over,
  }) as InputRequestContext;
const form = (message: string) => ({
  message,
  requestedSchema: { type: 'object' as const, properties: {} },
});
const sampling = (...texts: string[]) => ({
  messages: texts.map((text) => ({ role: 'user' as const, content: { type: 'text' as const, text } })),
  maxTokens: 10,
});

describe('scriptedCallbacks', () => {
  it('registers a callback for each declared kind only', () => {
    expect(Object.keys(scriptedCallbacks(undefined, ['elicitation', 'sampling', 'roots'])).sort()).toEqual([
      'elicitation',
      'roots',
      'sampling',
    ]);
    expect(Object.keys(scriptedCallbacks(undefined, ['roots']))).toEqual(['roots']);
    expect(scriptedCallbacks(undefined, [])).toEqual({});
  });

  it('answers by key, every time the key is asked', async () => {
    const { elicitation } = scriptedCallbacks({ q: accept({ ok: true }) }, ['elicitation']);
    expect(await elicitation?.(form('Sure?'), ctx())).toEqual({ action: 'accept', content: { ok: true } });
    expect(await elicitation?.(form('Sure?'), ctx({ round: 2 }))).toEqual({
      action: 'accept',
      content: { ok: true },
    });
    await expect(elicitation?.(form('Sure?'), ctx({ key: 'other' }))).rejects.toThrow(
      'No scripted answer for elicitation/create "other" (round 1 of tools/call "tool"): "Sure?"',
    );
  });

  it('matches a question by substring or RegExp (a global RegExp too, every time)', async () => {
    const { elicitation } = scriptedCallbacks(
      [
        { question: 'out of stock', answer: decline() },
        { question: /^Pick .+ colou?r$/g, answer: accept({ colour: 'red' }) },
      ],
      ['elicitation'],
    );
    expect(await elicitation?.(form('"Dune" is out of stock. Order?'), ctx())).toEqual({ action: 'decline' });
    for (let i = 0; i < 3; i++) {
      expect(await elicitation?.(form('Pick a color'), ctx())).toEqual({
        action: 'accept',
        content: { colour: 'red' },
      });
    }
    await expect(elicitation?.(form('Something else'), ctx())).rejects.toThrow(/No scripted answer/);
  });

  it('the first matching rule with uses left answers; `times` hands over to the next', async () => {
    const { elicitation } = scriptedCallbacks(
      [
        { key: 'q', times: 2, answer: accept({ n: 1 }) },
        { key: 'q', answer: accept({ n: 2 }) },
      ],
      ['elicitation'],
    );
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await elicitation?.(form('?'), ctx()));
    expect(answers.map((a) => a?.content?.n)).toEqual([1, 1, 2, 2]);
  });

  it('filters by method, round and any condition; all given filters must hold', async () => {
    const seen: string[] = [];
    const callbacks = scriptedCallbacks(
      [
        { method: 'roots/list', answer: roots('file:///repo') },
        { round: 2, answer: accept({ second: true }) },
        { when: (_request, c) => c.name === 'special', answer: accept({ special: true }) },
        { method: 'sampling/createMessage', question: 'blurb', answer: assistantMessage('A blurb') },
        {
          method: 'elicitation/create',
          answer: (request, c) => {
            seen.push(`${request.method} ${c.key} ${c.round}`);
            return accept({ fallback: true });
          },
        },
      ],
      ['elicitation', 'sampling', 'roots'],
    );
    expect(await callbacks.roots?.(ctx())).toEqual({ roots: [{ uri: 'file:///repo' }] });
    expect(await callbacks.elicitation?.(form('?'), ctx({ round: 2 }))).toMatchObject({
      content: { second: true },
    });
    expect(await callbacks.elicitation?.(form('?'), ctx({ name: 'special' } as never))).toMatchObject({
      content: { special: true },
    });
    expect(await callbacks.elicitation?.(form('?'), ctx({ key: 'k', round: 3 }))).toMatchObject({
      content: { fallback: true },
    });
    expect(seen).toEqual(['elicitation/create k 3']);
    expect(await callbacks.sampling?.(sampling('Write a blurb'), ctx())).toMatchObject({
      model: 'test-model',
    });
    await expect(callbacks.sampling?.(sampling('Write a poem'), ctx())).rejects.toThrow(
      'No scripted answer for sampling/createMessage "q" (round 1 of tools/call "tool"): "Write a poem"',
    );
  });

  it('a rule with a question never answers roots/list, which has no text', async () => {
    const { roots: answerRoots } = scriptedCallbacks([{ question: '', answer: roots() }], ['roots']);
    await expect(
      answerRoots?.(ctx({ method: 'resources/read', uri: 'file:///a', name: undefined } as never)),
    ).rejects.toThrow(
      'No scripted answer for roots/list "q" (round 1 of resources/read "file:///a"). Script one',
    );
  });

  it('an answer function may be async and may throw (the client reports it as the callback failing)', async () => {
    const { elicitation } = scriptedCallbacks(
      [
        { key: 'a', answer: async () => accept({ later: true }) },
        {
          key: 'b',
          answer: () => {
            throw new Error('boom');
          },
        },
      ],
      ['elicitation'],
    );
    expect(await elicitation?.(form('?'), ctx({ key: 'a' }))).toEqual({
      action: 'accept',
      content: { later: true },
    });
    await expect(elicitation?.(form('?'), ctx({ key: 'b' }))).rejects.toThrow('boom');
  });

  it('rejects bad scripts with the argument named', () => {
    const cases: [unknown, string, ErrorConstructor][] = [
      [
        'yes',
        '"answers" expected an object of answers by key or a list of answer rules, got string',
        TypeError,
      ],
      [{ q: null }, '"answers.q" expected an answer object or a function returning one, got null', TypeError],
      [[null], '"answers[0]" expected an answer rule, got null', TypeError],
      [
        [{ key: 'q' }],
        '"answers[0].answer" expected an answer object or a function returning one, got undefined',
        TypeError,
      ],
      [[{ key: 1, answer: decline() }], '"answers[0].key" expected a string, got number', TypeError],
      [
        [{ method: 'ping', answer: decline() }],
        '"answers[0].method" expected one of elicitation/create, sampling/createMessage, roots/list, got "ping"',
        RangeError,
      ],
      [
        [{ question: 3, answer: decline() }],
        '"answers[0].question" expected a string or a RegExp, got number',
        TypeError,
      ],
      [[{ when: true, answer: decline() }], '"answers[0].when" expected a function, got boolean', TypeError],
      [
        [{ times: 0, answer: decline() }],
        '"answers[0].times" expected a positive integer, got 0',
        RangeError,
      ],
      [
        [{ round: 1.5, answer: decline() }],
        '"answers[0].round" expected a positive integer, got 1.5',
        RangeError,
      ],
      [
        [{ round: '1', answer: decline() }],
        '"answers[0].round" expected a positive integer, got string',
        TypeError,
      ],
    ];
    for (const [answers, message, type] of cases) {
      expect(() => scriptedCallbacks(answers as never, ['elicitation'])).toThrow(type);
      expect(() => scriptedCallbacks(answers as never, ['elicitation'])).toThrow(message);
    }
  });
});

describe('questionText', () => {
  it('is the elicitation message, the sampling text blocks joined, nothing for roots', () => {
    expect(questionText({ method: 'elicitation/create', params: form('Sure?') } as InputRequest)).toBe(
      'Sure?',
    );
    const params = {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'one' },
            { type: 'image', data: 'AA==', mimeType: 'image/png' },
          ],
        },
        { role: 'assistant', content: { type: 'text', text: 'two' } },
      ],
      maxTokens: 5,
    };
    expect(questionText({ method: 'sampling/createMessage', params } as InputRequest)).toBe('one\ntwo');
    expect(questionText({ method: 'roots/list' })).toBeUndefined();
  });
});
