// Renders an elicitation's `requestedSchema` as a terminal form: one prompt per field, typed parsing, defaults,
// required fields, validation with re-prompt; and the accept / decline / cancel choice. No terminal code here:
// it talks to a `Prompter` (see prompter.ts), so tests drive it with a fake input stream.
import { type Choice, choicesOf, formField, multiChoicesOf, valueProblem } from '@boomerang/demo-kit/forms';
import type {
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  PrimitiveSchemaDefinition,
} from '@boomerang/protocol';

/** Asks one line at a time; resolves to `undefined` at the end of input (treated as cancel). */
export interface Prompter {
  question(prompt: string): Promise<string | undefined>;
}

/** A parsed line: the field's value (`undefined`: left out of the content), or what is wrong with the line. */
export type ParsedAnswer = { ok: true; value: unknown } | { ok: false; problem: string };

type Obj = Record<string, unknown>;

function pickChoice(choices: readonly Choice[], raw: string): Choice | undefined {
  if (/^\d+$/.test(raw)) return choices[Number(raw) - 1];
  const lower = raw.toLowerCase();
  return (
    choices.find((c) => c.value === raw) ??
    choices.find((c) => c.value.toLowerCase() === lower || c.label.toLowerCase() === lower)
  );
}

function formatDefault(field: PrimitiveSchemaDefinition): string | undefined {
  const value = (field as Obj).default;
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ');
  return String(value);
}

function range(min: unknown, max: unknown, unit = ''): string | undefined {
  const lo = typeof min === 'number' ? min : undefined;
  const hi = typeof max === 'number' ? max : undefined;
  if (lo !== undefined && hi !== undefined) return `${lo}–${hi}${unit}`;
  if (lo !== undefined) return `≥ ${lo}${unit}`;
  if (hi !== undefined) return `≤ ${hi}${unit}`;
  return undefined;
}

/** What to type, in brackets after the label: `(integer, 1–5)`, `(yes/no)`, `(one of the numbers above)`. */
export function hintOf(field: PrimitiveSchemaDefinition): string {
  const f = field as Obj;
  if (multiChoicesOf(field) !== undefined) {
    const count = range(f.minItems, f.maxItems, ' choices');
    return `comma-separated numbers or values, "-" for none${count === undefined ? '' : `; ${count}`}`;
  }
  if (choicesOf(field) !== undefined) return 'a number or a value';
  if (f.type === 'boolean') return 'yes/no';
  if (f.type === 'number' || f.type === 'integer') {
    const bounds = range(f.minimum, f.maximum);
    return bounds === undefined ? String(f.type) : `${f.type}, ${bounds}`;
  }
  const parts = ['text'];
  if (typeof f.format === 'string') parts[0] = f.format;
  const length = range(f.minLength, f.maxLength, ' characters');
  if (length !== undefined) parts.push(length);
  return parts.join(', ');
}

/** The lines that introduce one field: label, required mark, description, options, default. */
export function describeField(name: string, field: PrimitiveSchemaDefinition, required: boolean): string[] {
  const f = field as Obj;
  const label = typeof f.title === 'string' ? `${f.title} (${name})` : name;
  const lines = [`${label}${required ? ' *' : ''}  [${hintOf(field)}]`];
  if (typeof f.description === 'string') lines.push(`  ${f.description}`);
  const options = multiChoicesOf(field) ?? choicesOf(field);
  options?.forEach((c, i) => {
    lines.push(`    ${i + 1}) ${c.label}${c.label === c.value ? '' : `  [${c.value}]`}`);
  });
  const fallback = formatDefault(field);
  if (fallback !== undefined) lines.push(`  default: ${fallback} (press Enter)`);
  return lines;
}

const TRUE = new Set(['y', 'yes', 'true', '1']);
const FALSE = new Set(['n', 'no', 'false', '0']);

/**
 * Parses one typed line for `field`. An empty line takes the default, or leaves an optional field out; a
 * required field without a default must be answered. Never throws.
 */
export function parseAnswer(field: PrimitiveSchemaDefinition, line: string, required: boolean): ParsedAnswer {
  const f = field as Obj;
  const raw = line.trim();
  if (raw === '') {
    if (f.default !== undefined) return { ok: true, value: f.default };
    return required ? { ok: false, problem: 'this field is required' } : { ok: true, value: undefined };
  }
  const checked = (value: unknown): ParsedAnswer => {
    const problem = valueProblem(formField('', field, required), value);
    return problem === undefined ? { ok: true, value } : { ok: false, problem };
  };
  const multi = multiChoicesOf(field);
  if (multi !== undefined) {
    const picked: string[] = [];
    if (raw !== '-') {
      for (const part of raw
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '')) {
        const choice = pickChoice(multi, part);
        if (choice === undefined) return { ok: false, problem: `"${part}" is not one of the options` };
        if (!picked.includes(choice.value)) picked.push(choice.value);
      }
    }
    return checked(picked);
  }
  const single = choicesOf(field);
  if (single !== undefined) {
    const choice = pickChoice(single, raw);
    return choice === undefined
      ? { ok: false, problem: `"${raw}" is not one of the options` }
      : { ok: true, value: choice.value };
  }
  if (f.type === 'boolean') {
    const lower = raw.toLowerCase();
    if (TRUE.has(lower)) return { ok: true, value: true };
    if (FALSE.has(lower)) return { ok: true, value: false };
    return { ok: false, problem: 'yes or no, please' };
  }
  if (f.type === 'number' || f.type === 'integer') return checked(Number(raw));
  return checked(raw);
}

type Action = ElicitResult['action'];

/** Asks accept / decline / cancel until one is given; the end of input is cancel. */
async function chooseAction(
  prompter: Prompter,
  write: (line: string) => void,
  verb: string,
): Promise<Action> {
  for (;;) {
    const line = await prompter.question(`  │ ${verb}? [a]ccept / [d]ecline / [c]ancel (a): `);
    if (line === undefined) return 'cancel';
    const choice = line.trim().toLowerCase();
    if (choice === '' || choice === 'a' || choice === 'accept') return 'accept';
    if (choice === 'd' || choice === 'decline') return 'decline';
    if (choice === 'c' || choice === 'cancel') return 'cancel';
    write('  │ ! a, d or c, please');
  }
}

/**
 * Shows a form elicitation and fills it field by field: the person first accepts, declines or cancels; then
 * answers each field (re-prompted until valid). Typing `:decline` or `:cancel` at any field stops there; the end
 * of input cancels. Resolves to the `ElicitResult` to send: accepted content holds only the fields answered
 * (defaults included).
 */
export async function fillForm(
  params: ElicitRequestFormParams,
  prompter: Prompter,
  write: (line: string) => void,
): Promise<ElicitResult> {
  const properties = params.requestedSchema.properties;
  const required = new Set(params.requestedSchema.required ?? []);
  write(`  ┌ ${params.message}`);
  const action = await chooseAction(prompter, write, 'Fill in this form');
  if (action !== 'accept') return { action };
  write('  │ (* required; :decline or :cancel at any field)');
  const content: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(properties)) {
    for (const line of describeField(name, field, required.has(name))) write(`  │ ${line}`);
    for (;;) {
      const line = await prompter.question('  │ > ');
      if (line === undefined || line.trim() === ':cancel') return { action: 'cancel' };
      if (line.trim() === ':decline') return { action: 'decline' };
      const parsed = parseAnswer(field, line, required.has(name));
      if (parsed.ok) {
        if (parsed.value !== undefined) content[name] = parsed.value;
        break;
      }
      write(`  │ ! ${parsed.problem}`);
    }
  }
  write(`  └ sending ${JSON.stringify(content)}`);
  return { action: 'accept', content: content as NonNullable<ElicitResult['content']> };
}

/**
 * Shows a URL elicitation: the message and the URL to open (this client does not open browsers), then accept
 * (the person agrees to go there), decline or cancel. The end of input cancels.
 */
export async function confirmUrl(
  params: ElicitRequestURLParams,
  prompter: Prompter,
  write: (line: string) => void,
): Promise<ElicitResult> {
  write(`  ┌ ${params.message}`);
  write(`  │ open: ${params.url}`);
  const action = await chooseAction(prompter, write, 'Open it');
  write(`  └ ${action}`);
  return { action };
}
