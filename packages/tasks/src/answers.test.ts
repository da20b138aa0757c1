// What a tasks/update answer must be before it is recorded: the result of its request's kind, and for an accepted
// form, content that fills the form the client was shown.
import { createMessageRequest, elicitRequest, elicitUrlRequest, listRootsRequest } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { answerIssues, formIssue } from './answers.js';

const form = elicitRequest({
  message: 'Print it?',
  requestedSchema: {
    type: 'object',
    properties: {
      confirm: { type: 'boolean' },
      copies: { type: 'integer', minimum: 1, maximum: 100 },
      price: { type: 'number', maximum: 9.5 },
      paper: { type: 'string', enum: ['matte', 'gloss'] },
      finish: {
        type: 'string',
        oneOf: [
          { const: 'soft', title: 'Soft' },
          { const: 'hard', title: 'Hard' },
        ],
      },
      note: { type: 'string', minLength: 2, maxLength: 5 },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1, maxItems: 2 },
      labels: { type: 'array', items: { anyOf: [{ const: 'x', title: 'X' }] } },
    },
    required: ['confirm'],
  },
});
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

describe('answerIssues', () => {
  it('accepts an answer of the right kind that fills the form', () => {
    const full = accept({
      confirm: true,
      copies: 3,
      price: 9.5,
      paper: 'matte',
      finish: 'hard',
      note: 'ok',
      tags: ['a', 'b'],
      labels: ['x'],
      extra: 'not in the form: left alone',
    });
    expect(answerIssues(form, full)).toBeUndefined();
    expect(answerIssues(form, { action: 'decline' })).toBeUndefined();
    expect(answerIssues(form, { action: 'cancel' })).toBeUndefined();
  });

  it.each([
    [{ action: 'maybe' }, /^is not an answer to elicitation\/create: /],
    [accept({}), /^does not fill the form: "confirm" is required$/],
    [accept({ confirm: 'yes' }), /"confirm" expected a boolean, got string/],
    [accept({ confirm: true, copies: 1.5 }), /"copies" expected an integer, got 1\.5/],
    [accept({ confirm: true, copies: '3' }), /"copies" expected a number, got string/],
    [accept({ confirm: true, copies: 0 }), /"copies" is 0, under the minimum 1/],
    [accept({ confirm: true, copies: 101 }), /"copies" is 101, over the maximum 100/],
    [accept({ confirm: true, price: 10 }), /"price" is 10, over the maximum 9\.5/],
    [accept({ confirm: true, paper: 'silk' }), /"paper" expected one of \["matte","gloss"\], got "silk"/],
    [accept({ confirm: true, finish: 'wood' }), /"finish" expected one of \["soft","hard"\], got "wood"/],
    [accept({ confirm: true, note: 'x' }), /"note" is 1 characters, under the minimum 2/],
    [accept({ confirm: true, note: 'x'.repeat(6) }), /"note" is 6 characters, over the maximum 5/],
    [accept({ confirm: true, note: 5 }), /"note" expected a string, got number/],
    [accept({ confirm: true, tags: 'a' }), /"tags" expected an array of strings, got string/],
    [accept({ confirm: true, tags: ['c'] }), /"tags" expected items among \["a","b"\], got "c"/],
    [accept({ confirm: true, tags: [] }), /"tags" is 0 items, under the minimum 1/],
    [accept({ confirm: true, tags: ['a', 'b', 'a'] }), /"tags" is 3 items, over the maximum 2/],
    [accept({ confirm: true, labels: ['y'] }), /"labels" expected items among \["x"\], got "y"/],
  ])('refuses %j', (answer, issue) => {
    expect(answerIssues(form, answer)).toMatch(issue);
  });

  it('checks sampling and roots answers by their result schema, URL elicitations by action alone', () => {
    const sampling = createMessageRequest({ messages: [], maxTokens: 10 });
    expect(answerIssues(sampling, { action: 'accept' })).toMatch(
      /^is not an answer to sampling\/createMessage/,
    );
    expect(
      answerIssues(sampling, { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' }),
    ).toBeUndefined();
    expect(answerIssues(listRootsRequest(), { roots: 'all' })).toMatch(/^is not an answer to roots\/list/);
    expect(answerIssues(listRootsRequest(), { roots: [] })).toBeUndefined();
    const url = elicitUrlRequest({ message: 'Sign in', url: 'https://example.com', elicitationId: 'e1' });
    expect(answerIssues(url, { action: 'accept' })).toBeUndefined();
  });

  it('leaves a request of an unknown kind to the handler', () => {
    expect(answerIssues({ method: 'vendor/ask', params: {} }, { anything: true })).toBeUndefined();
    expect(answerIssues(null, {})).toBeUndefined();
  });
});

describe('formIssue', () => {
  it('has nothing to say about a form whose schema is not an object, or a missing params', () => {
    expect(formIssue(undefined, accept({}))).toBeUndefined();
    expect(formIssue({ requestedSchema: 'nope' }, accept({}))).toBeUndefined();
    expect(formIssue({ requestedSchema: { properties: { a: 'x' } } }, accept({ a: 1 }))).toBeUndefined();
    expect(formIssue({ requestedSchema: { required: ['a'] } }, accept({}))).toBe('"a" is required');
  });

  it('names an array of other things than strings (ElicitResult already refuses it on the wire)', () => {
    expect(formIssue(form.params, accept({ confirm: true, tags: [1] }))).toBe(
      '"tags" expected an array of strings, got array',
    );
  });
});
