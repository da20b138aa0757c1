// What a submitted page answers: every field kind read back from form data, every problem named, hostile input
// turned into problems (never thrown), and the rules of decline / cancel.
import { describe, expect, it } from 'vitest';
import { continuation, form } from '../test-support/flows.js';
import {
  fromLocalDateTime,
  onlyElicitations,
  questionViews,
  readAnswers,
  toLocalDateTime,
} from './questions.js';

const ROOTS = [
  { uri: 'file:///srv/shared', name: 'shared' },
  { uri: 'file:///home/alice', name: 'home' },
];

const everything = form(
  'Register',
  {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 20 },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    seats: { type: 'integer', minimum: 1, maximum: 5, default: 1 },
    budget: { type: 'number', minimum: 0, maximum: 99.5 },
    vip: { type: 'boolean', default: false },
    agree: { type: 'boolean' },
    colour: { type: 'string', enum: ['red', 'green'] },
    speed: {
      type: 'string',
      oneOf: [
        { const: 'std', title: 'Standard' },
        { const: 'exp', title: 'Express' },
      ],
      default: 'std',
    },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 },
  },
  ['name', 'agree', 'colour'],
);

const views = (questions: Parameters<typeof continuation>[0]) =>
  questionViews(continuation(questions).inputRequests, ROOTS);

function formData(entries: [string, string][]): URLSearchParams {
  return new URLSearchParams(entries);
}

describe('readAnswers: forms', () => {
  const q = views({ reg: everything });

  it('reads every field kind into typed content', () => {
    const { responses, problems } = readAnswers(
      q,
      formData([
        ['q0.f0', '  Ada  '],
        ['q0.f1', 'ada@example.com'],
        ['q0.f2', 'https://ada.example'],
        ['q0.f3', '2026-07-28'],
        ['q0.f4', '2026-07-28T09:30'],
        ['q0.f5', '3'],
        ['q0.f6', '12.5'],
        ['q0.f7', 'true'],
        ['q0.f8', 'false'],
        ['q0.f9', 'green'],
        ['q0.f10', 'exp'],
        ['q0.f11', 'a'],
        ['q0.f11', 'c'],
      ]),
      'accept',
      'alice',
    );
    expect(problems).toEqual([]);
    expect(responses).toEqual({
      reg: {
        action: 'accept',
        content: {
          name: 'Ada',
          email: 'ada@example.com',
          site: 'https://ada.example',
          day: '2026-07-28',
          at: '2026-07-28T09:30:00Z',
          seats: 3,
          budget: 12.5,
          vip: true,
          agree: false,
          colour: 'green',
          speed: 'exp',
          tags: ['a', 'c'],
        },
      },
    });
  });

  it('leaves empty optional fields out; an unticked checkbox is false; no multi-select pick is []', () => {
    const { responses, problems } = readAnswers(
      q,
      formData([
        ['q0.f0', 'Ada'],
        ['q0.f8', 'true'],
        ['q0.f9', 'red'],
        ['q0.f1', ''],
        ['q0.f5', ''],
      ]),
      'accept',
      'alice',
    );
    expect(problems).toEqual([]);
    expect(responses.reg).toEqual({
      action: 'accept',
      content: { name: 'Ada', vip: false, agree: true, colour: 'red', tags: [] },
    });
  });

  it('names every problem by the id of its control, with the words a person reads', () => {
    const { problems } = readAnswers(
      q,
      formData([
        ['q0.f0', 'A'],
        ['q0.f1', 'ada'],
        ['q0.f2', 'not a url'],
        ['q0.f3', '2026-02-30'],
        ['q0.f4', 'tomorrow'],
        ['q0.f5', '9'],
        ['q0.f6', 'lots'],
        ['q0.f8', 'maybe'],
        ['q0.f9', 'blue'],
        ['q0.f10', 'warp'],
        ['q0.f11', 'a'],
        ['q0.f11', 'b'],
        ['q0.f11', 'c'],
      ]),
      'accept',
      'alice',
    );
    expect(problems).toEqual([
      { id: 'q0-f0', label: 'Name', message: 'at least 2 characters, please' },
      { id: 'q0-f1', label: 'email', message: 'an email address, please' },
      { id: 'q0-f2', label: 'site', message: 'an absolute URI, please' },
      { id: 'q0-f3', label: 'day', message: 'a date like 2026-07-28, please' },
      { id: 'q0-f4', label: 'at', message: 'a date and time like 2026-07-28T09:30:00Z, please' },
      { id: 'q0-f5', label: 'seats', message: 'at most 5' },
      { id: 'q0-f6', label: 'budget', message: 'a number, please' },
      { id: 'q0-f8', label: 'agree', message: 'yes or no, please' },
      { id: 'q0-f9', label: 'colour', message: '"blue" is not one of the options' },
      { id: 'q0-f10', label: 'speed', message: '"warp" is not one of the options' },
      { id: 'q0-f11', label: 'tags', message: 'pick at most 2' },
    ]);
  });

  it('a required field left out is required; fields the form does not have are ignored', () => {
    const { responses, problems } = readAnswers(
      q,
      formData([
        ['q0.f99', 'x'],
        ['name', 'Ada'],
      ]),
      'accept',
      'alice',
    );
    expect(problems.map((p) => [p.id, p.message])).toEqual([
      ['q0-f0', 'this field is required'],
      ['q0-f8', 'this field is required'],
      ['q0-f9', 'this field is required'],
    ]);
    expect(Object.keys((responses.reg as { content: object }).content)).toEqual(['vip', 'tags']);
  });

  it('decline and cancel answer every question of a round of elicitations, without reading any field', () => {
    const two = views({
      reg: everything,
      site: {
        method: 'elicitation/create',
        params: { mode: 'url', message: 'Sign in', url: 'https://x.example' },
      } as never,
    });
    expect(onlyElicitations(two)).toBe(true);
    expect(readAnswers(two, formData([['q0.f0', '']]), 'decline', 'alice')).toEqual({
      responses: { reg: { action: 'decline' }, site: { action: 'decline' } },
      problems: [],
    });
    expect(readAnswers(two, formData([]), 'cancel', 'alice').responses).toEqual({
      reg: { action: 'cancel' },
      site: { action: 'cancel' },
    });
  });

  it('with several questions, each elicitation has its own response; a declined one is not checked', () => {
    const two = views({
      reg: everything,
      gift: form('Gift?', { wrap: { type: 'boolean', default: false } }),
    });
    const { responses, problems } = readAnswers(
      two,
      formData([
        ['q0.action', 'decline'],
        ['q1.action', 'accept'],
        ['q1.f0', 'true'],
      ]),
      'accept',
      'alice',
    );
    expect(problems).toEqual([]);
    expect(responses).toEqual({
      reg: { action: 'decline' },
      gift: { action: 'accept', content: { wrap: true } },
    });
    expect(readAnswers(two, formData([['q0.action', 'nonsense']]), 'accept', 'alice').problems).toHaveLength(
      3,
    );
  });
});

describe('readAnswers: URL, sampling and roots', () => {
  const mixed = views({
    site: {
      method: 'elicitation/create',
      params: { mode: 'url', message: 'Sign in', url: 'https://x.example' },
    } as never,
    llm: {
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: 'Blurb?' } }], maxTokens: 50 },
    },
    where: { method: 'roots/list' },
  });

  it('reads a URL as done, the reply as a completion written by a person, and the ticked roots', () => {
    expect(mixed.map((q) => q.kind)).toEqual(['url', 'sampling', 'roots']);
    expect(onlyElicitations(mixed)).toBe(false);
    const { responses, problems } = readAnswers(
      mixed,
      formData([
        ['q0.action', 'accept'],
        ['q1.text', ' Sand and spice. '],
        ['q2.roots', 'file:///home/alice'],
        ['q2.roots', 'file:///not/offered'],
      ]),
      'accept',
      'alice',
    );
    expect(problems).toEqual([]);
    expect(responses).toEqual({
      site: { action: 'accept' },
      llm: {
        role: 'assistant',
        content: { type: 'text', text: 'Sand and spice.' },
        model: 'human:alice',
        stopReason: 'endTurn',
      },
      where: { roots: [{ uri: 'file:///home/alice', name: 'home' }] },
    });
  });

  it('an empty reply is a problem; decline and cancel are refused when the round asks more than forms', () => {
    expect(readAnswers(mixed, formData([]), 'accept', 'alice').problems).toEqual([
      { id: 'q1-text', label: 'Reply', message: 'write the reply, please' },
    ]);
    const declined = readAnswers(mixed, formData([]), 'decline', 'alice');
    expect(declined.responses).toEqual({});
    expect(declined.problems[0]).toMatchObject({
      id: 'actions',
      message: expect.stringMatching(/drop the flow/),
    });
  });
});

describe('date-time fields', () => {
  it('send a datetime-local value as UTC, and show an RFC 3339 default in it', () => {
    expect(fromLocalDateTime('2026-07-28T09:30')).toBe('2026-07-28T09:30:00Z');
    expect(fromLocalDateTime('2026-07-28T09:30:15')).toBe('2026-07-28T09:30:15Z');
    expect(fromLocalDateTime('2026-07-28T09:30:00+02:00')).toBe('2026-07-28T09:30:00+02:00');
    expect(toLocalDateTime('2026-07-28T09:30:00+02:00')).toBe('2026-07-28T07:30:00');
    expect(toLocalDateTime('soon')).toBe('');
    expect(toLocalDateTime(42)).toBe('');
  });
});
