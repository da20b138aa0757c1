import { PassThrough } from 'node:stream';
import type { ElicitRequestFormParams, PrimitiveSchemaDefinition } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { confirmUrl, describeField, fillForm, parseAnswer } from './form.js';
import { createPrompter } from './prompter.js';

/** Drives `fillForm` through the real readline prompter over a fake input stream; returns the result and output. */
async function run(params: ElicitRequestFormParams, lines: readonly string[], end = true) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.setEncoding('utf8').on('data', (chunk: string) => {
    shown += chunk;
  });
  const prompter = createPrompter(input, output);
  for (const line of lines) input.write(`${line}\n`);
  if (end) input.end();
  const written: string[] = [];
  try {
    const result = await fillForm(params, prompter, (line) => written.push(line));
    return { result, written, shown };
  } finally {
    prompter.close();
  }
}

const form = (
  properties: Record<string, PrimitiveSchemaDefinition>,
  required: string[] = [],
): ElicitRequestFormParams => ({
  message: 'Tell us',
  requestedSchema: { type: 'object', properties, ...(required.length > 0 && { required }) },
});

const text: PrimitiveSchemaDefinition = { type: 'string', title: 'Name', minLength: 2, maxLength: 5 };
const count: PrimitiveSchemaDefinition = { type: 'integer', minimum: 1, maximum: 5, default: 1 };
const price: PrimitiveSchemaDefinition = { type: 'number', minimum: 0 };
const yes: PrimitiveSchemaDefinition = { type: 'boolean', default: false };
const plain: PrimitiveSchemaDefinition = { type: 'string', enum: ['paperback', 'hardcover'] };
const titled: PrimitiveSchemaDefinition = {
  type: 'string',
  oneOf: [
    { const: 'std', title: 'Standard' },
    { const: 'exp', title: 'Express' },
  ],
  default: 'std',
};
const legacy = {
  type: 'string',
  enum: ['a', 'b'],
  enumNames: ['Apple', 'Banana'],
} as PrimitiveSchemaDefinition;
const multi: PrimitiveSchemaDefinition = {
  type: 'array',
  items: { type: 'string', enum: ['email', 'sms', 'push'] },
  maxItems: 2,
  default: ['email'],
};
const multiTitled: PrimitiveSchemaDefinition = {
  type: 'array',
  minItems: 1,
  items: {
    anyOf: [
      { const: 'r', title: 'Red' },
      { const: 'g', title: 'Green' },
    ],
  },
};

describe('parseAnswer', () => {
  it.each([
    ['text', text, 'Ada', true, 'Ada'],
    ['text, trimmed', text, '  Ada  ', true, 'Ada'],
    ['integer', count, '3', true, 3],
    ['integer default on empty', count, '', true, 1],
    ['number', price, '12.5', true, 12.5],
    ['boolean yes', yes, 'Y', true, true],
    ['boolean no', yes, 'no', true, false],
    ['boolean default', yes, '', true, false],
    ['enum by number', plain, '2', true, 'hardcover'],
    ['enum by value', plain, 'paperback', true, 'paperback'],
    ['enum by value, any case', plain, 'HARDCOVER', true, 'hardcover'],
    ['titled enum by title', titled, 'express', true, 'exp'],
    ['titled enum by number', titled, '1', true, 'std'],
    ['titled enum default', titled, '', true, 'std'],
    ['legacy enumNames by name', legacy, 'banana', true, 'b'],
    ['multi by numbers', multi, '1, 3', true, ['email', 'push']],
    ['multi by values, deduplicated', multi, 'sms,sms', true, ['sms']],
    ['multi none', multi, '-', true, []],
    ['multi default', multi, '', true, ['email']],
    ['titled multi by title', multiTitled, 'green,1', true, ['g', 'r']],
    ['optional text left out', { type: 'string' }, '', false, undefined],
  ] as const)('%s', (_name, field, line, required, value) => {
    expect(parseAnswer(field as PrimitiveSchemaDefinition, line, required)).toEqual({ ok: true, value });
  });

  it.each([
    ['required, no default', { type: 'string' }, '', 'this field is required'],
    ['too short', text, 'A', 'at least 2 characters, please'],
    ['too long', text, 'Adalbert', 'at most 5 characters, please (got 8)'],
    ['not a number', price, 'ten', 'a number, please'],
    ['not whole', count, '1.5', 'a whole number, please'],
    ['below the minimum', count, '0', 'at least 1'],
    ['above the maximum', count, '6', 'at most 5'],
    ['not yes or no', yes, 'maybe', 'yes or no, please'],
    ['not an option', plain, 'ebook', '"ebook" is not one of the options'],
    ['option number out of range', plain, '3', '"3" is not one of the options'],
    ['multi: unknown', multi, 'fax', '"fax" is not one of the options'],
    ['multi: too many', multi, '1,2,3', 'pick at most 2'],
    ['multi: too few', multiTitled, '-', 'pick at least 1'],
    ['email', { type: 'string', format: 'email' }, 'ada', 'an email address, please'],
    ['uri', { type: 'string', format: 'uri' }, 'not a uri', 'an absolute URI, please'],
    ['date', { type: 'string', format: 'date' }, '28/07/2026', 'a date like 2026-07-28, please'],
  ] as const)('rejects: %s', (_name, field, line, problem) => {
    expect(parseAnswer(field as PrimitiveSchemaDefinition, line, true)).toEqual({ ok: false, problem });
  });

  it('accepts well-formed formats', () => {
    expect(parseAnswer({ type: 'string', format: 'email' }, 'ada@example.com', true).ok).toBe(true);
    expect(parseAnswer({ type: 'string', format: 'date' }, '2026-07-28', true).ok).toBe(true);
    expect(parseAnswer({ type: 'string', format: 'date-time' }, '2026-07-28T09:30:00Z', true).ok).toBe(true);
    expect(parseAnswer({ type: 'string', format: 'uri' }, 'https://example.com/x', true).ok).toBe(true);
  });
});

describe('describeField', () => {
  it('shows label, required mark, bounds, options and default', () => {
    expect(describeField('count', { ...count, title: 'Copies' }, true)).toEqual([
      'Copies (count) *  [integer, 1–5]',
      '  default: 1 (press Enter)',
    ]);
    expect(describeField('speed', { ...titled, description: 'How fast' }, false)).toEqual([
      'speed  [a number or a value]',
      '  How fast',
      '    1) Standard  [std]',
      '    2) Express  [exp]',
      '  default: std (press Enter)',
    ]);
    expect(describeField('notify', multi, false)).toEqual([
      'notify  [comma-separated numbers or values, "-" for none; ≤ 2 choices]',
      '    1) email',
      '    2) sms',
      '    3) push',
      '  default: email (press Enter)',
    ]);
    expect(describeField('wrap', yes, false)).toEqual(['wrap  [yes/no]', '  default: no (press Enter)']);
    expect(describeField('name', text, true)).toEqual(['Name (name) *  [text, 2–5 characters]']);
  });
});

describe('fillForm over a fake input stream', () => {
  const everything = form(
    {
      name: text,
      count,
      price,
      wrap: yes,
      binding: plain,
      speed: titled,
      notify: multi,
      colours: multiTitled,
    },
    ['name', 'binding', 'colours'],
  );

  it('fills every kind of field, using defaults on empty lines', async () => {
    const { result } = await run(everything, ['', 'Ada', '', '9.5', 'y', '2', '', '2,3', 'red']);
    expect(result).toEqual({
      action: 'accept',
      content: {
        name: 'Ada',
        count: 1,
        price: 9.5,
        wrap: true,
        binding: 'hardcover',
        speed: 'std',
        notify: ['sms', 'push'],
        colours: ['r'],
      },
    });
  });

  it('leaves optional fields without a default out', async () => {
    const { result } = await run(form({ note: { type: 'string' }, wrap: yes }), ['a', '', '']);
    expect(result).toEqual({ action: 'accept', content: { wrap: false } });
  });

  it('re-prompts until a line is valid, saying what is wrong', async () => {
    const { result, written, shown } = await run(form({ name: text, count }, ['name']), [
      'a',
      '',
      'A',
      'Ada',
      '7',
      'x',
      '4',
    ]);
    expect(result).toEqual({ action: 'accept', content: { name: 'Ada', count: 4 } });
    expect(written.filter((line) => line.includes('!'))).toEqual([
      '  │ ! this field is required',
      '  │ ! at least 2 characters, please',
      '  │ ! at most 5',
      '  │ ! a number, please',
    ]);
    // The prompts, with the lines read echoed after them (no terminal here).
    expect(shown).toContain('Fill in this form? [a]ccept / [d]ecline / [c]ancel (a): a\n');
    expect(shown.match(/│ > /g)).toHaveLength(6);
  });

  it.each([
    ['d', 'decline'],
    ['decline', 'decline'],
    ['c', 'cancel'],
  ] as const)('answers %s at the first prompt: %s, no fields asked', async (line, action) => {
    const { result, written } = await run(everything, [line]);
    expect(result).toEqual({ action });
    expect(written.some((l) => l.includes('Name (name)'))).toBe(false);
  });

  it('asks again for an unknown action', async () => {
    const { result, written } = await run(form({ wrap: yes }), ['maybe', 'd']);
    expect(result).toEqual({ action: 'decline' });
    expect(written).toContain('  │ ! a, d or c, please');
  });

  it.each([
    [':decline', 'decline'],
    [':cancel', 'cancel'],
  ] as const)('stops at a field with %s', async (line, action) => {
    const { result } = await run(everything, ['a', 'Ada', line]);
    expect(result).toEqual({ action });
  });

  it('cancels at the end of input, at the first prompt or in the middle of the form', async () => {
    expect((await run(everything, [])).result).toEqual({ action: 'cancel' });
    expect((await run(everything, ['a', 'Ada'])).result).toEqual({ action: 'cancel' });
  });

  it('waits for lines typed later', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const prompter = createPrompter(input, output);
    const pending = fillForm(form({ wrap: yes }), prompter, () => {});
    setTimeout(() => input.write('a\n'), 10);
    setTimeout(() => input.write('yes\n'), 20);
    expect(await pending).toEqual({ action: 'accept', content: { wrap: true } });
    prompter.close();
  });
});

describe('confirmUrl', () => {
  const params = { mode: 'url' as const, message: 'Sign in', url: 'https://example.com/in' };
  it.each([
    ['', 'accept'],
    ['d', 'decline'],
    ['c', 'cancel'],
  ] as const)('%j → %s, after showing the URL', async (line, action) => {
    const input = new PassThrough();
    const prompter = createPrompter(input, new PassThrough());
    input.end(`${line}\n`);
    const written: string[] = [];
    expect(await confirmUrl(params, prompter, (l) => written.push(l))).toEqual({ action });
    expect(written).toContain('  │ open: https://example.com/in');
    prompter.close();
  });
});
