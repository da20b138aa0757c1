// The questions of a round as HTML: a form elicitation as a real form (one labelled control per field, the spec's
// primitives each as the control that fits, defaults filled in, constraints as attributes and as words), a URL
// elicitation as a link whose host is spelled out, a sampling request as the conversation and a box for the
// reply, a roots request as the configured roots to tick. Every control has a label, every group a legend, and
// every hint and error is tied to its control with aria-describedby, so the form reads well with a keyboard and a
// screen reader.
import type { FormField } from '@boomerang/demo-kit/forms';
import type { ContentBlock, SamplingMessage } from '@boomerang/protocol';
import { attr, flag, type Html, html } from './html.js';
import {
  inputId,
  inputName,
  type Problem,
  type QuestionView,
  shownValue,
  toLocalDateTime,
} from './questions.js';

/** What the page shows again after a refused submit: the values sent and what was wrong with them. */
export interface Refill {
  readonly form: URLSearchParams;
  readonly problems: readonly Problem[];
}

const INPUT_TYPES = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' } as const;

/** The constraints of a field in words (shown under its label, and read with it). */
export function constraintsOf(field: FormField): string | undefined {
  const range = (lo: number | undefined, hi: number | undefined, unit = '') => {
    if (lo !== undefined && hi !== undefined) return `${lo}–${hi}${unit}`;
    if (lo !== undefined) return `at least ${lo}${unit}`;
    if (hi !== undefined) return `at most ${hi}${unit}`;
    return undefined;
  };
  switch (field.kind) {
    case 'text': {
      const parts: string[] = [];
      if (field.format === 'email') parts.push('an email address');
      if (field.format === 'uri') parts.push('a full web address (https://…)');
      if (field.format === 'date') parts.push('a date');
      if (field.format === 'date-time') parts.push('a date and time, UTC');
      const length = range(field.minLength, field.maxLength, ' characters');
      if (length !== undefined) parts.push(length);
      return parts.length === 0 ? undefined : parts.join(', ');
    }
    case 'number':
      return range(field.minimum, field.maximum);
    case 'integer': {
      const bounds = range(field.minimum, field.maximum);
      return bounds === undefined ? 'a whole number' : `a whole number, ${bounds}`;
    }
    case 'choices': {
      const count = range(field.minItems, field.maxItems, field.maxItems === 1 ? ' option' : ' options');
      return count === undefined ? undefined : `pick ${count}`;
    }
    default:
      return undefined;
  }
}

/** The problem the page reports for input `id`, if any. */
const problemOf = (refill: Refill | undefined, id: string) => refill?.problems.find((p) => p.id === id);

/** The hint and the error paragraphs of a control, and the ids to describe it by. */
function notes(id: string, hint: string | undefined, problem: Problem | undefined) {
  const describedBy = [hint === undefined ? undefined : `${id}-hint`, `${id}-error`]
    .filter(Boolean)
    .join(' ');
  return {
    describedBy,
    invalid: problem !== undefined,
    markup: html`${hint === undefined ? '' : html`<p class="hint" id="${id}-hint">${hint}</p>`}<p class="field-error" id="${id}-error">${problem?.message ?? ''}</p>`,
  };
}

function requiredMark(required: boolean): Html {
  return required ? html` <span class="required" aria-hidden="true">*</span>` : html``;
}

/** One field of a form elicitation. */
function fieldView(question: number, j: number, field: FormField, refill: Refill | undefined): Html {
  const id = inputId(question, `f${j}`);
  const name = inputName(question, `f${j}`);
  const value = shownValue(field, refill?.form, name);
  const problem = problemOf(refill, id);
  const n = notes(
    id,
    [field.description, constraintsOf(field)].filter(Boolean).join(' · ') || undefined,
    problem,
  );
  const aria = html`${attr('aria-describedby', n.describedBy)}${flag('aria-invalid="true"', n.invalid)}`;
  const common = html`id="${id}" name="${name}"${flag('required', field.required)}${aria}`;
  const label = html`<label for="${id}">${field.label}${requiredMark(field.required)}</label>`;
  const kind = `field field-${field.kind}`;

  if (field.kind === 'boolean' && field.default !== undefined) {
    const checked = refill === undefined ? value === true : value === 'true';
    return html`<div class="${kind}" data-field="${id}"><div class="check"><input type="checkbox" id="${id}" name="${name}" value="true"${flag('checked', checked)}${aria}> ${label}</div>${n.markup}</div>`;
  }
  if (field.kind === 'boolean') {
    const chosen = refill === undefined ? (value === undefined ? undefined : String(value)) : value;
    const radio = (v: string, text: string) =>
      html`<label class="option"><input type="radio" name="${name}" id="${id}-${v}" value="${v}"${flag('required', field.required)}${flag('checked', chosen === v)}> ${text}</label>`;
    return html`<fieldset class="${kind}" id="${id}" data-field="${id}"${aria}><legend>${field.label}${requiredMark(field.required)}</legend>${radio('true', 'Yes')}${radio('false', 'No')}${n.markup}</fieldset>`;
  }
  if (field.kind === 'choices') {
    const picked = new Set((Array.isArray(value) ? value : []).map(String));
    const boxes = (field.choices ?? []).map(
      (choice, k) =>
        html`<label class="option"><input type="checkbox" name="${name}" id="${id}-o${k}" value="${choice.value}"${flag('checked', picked.has(choice.value))}> ${choice.label}</label>`,
    );
    return html`<fieldset class="${kind}" id="${id}" data-field="${id}"${attr('data-min-items', field.minItems)}${attr('data-max-items', field.maxItems)}${aria}><legend>${field.label}${requiredMark(field.required)}</legend>${boxes}${n.markup}</fieldset>`;
  }
  if (field.kind === 'choice') {
    const current = value === undefined || value === null ? '' : String(value);
    const options = (field.choices ?? []).map(
      (choice) =>
        html`<option value="${choice.value}"${flag('selected', choice.value === current)}>${choice.label}</option>`,
    );
    const placeholder =
      field.default === undefined || current === '' ? html`<option value="">Choose…</option>` : '';
    return html`<div class="${kind}" data-field="${id}">${label}<select ${common}>${placeholder}${options}</select>${n.markup}</div>`;
  }
  if (field.kind === 'number' || field.kind === 'integer') {
    const shown = value === undefined || value === null ? '' : String(value);
    const step = field.kind === 'integer' ? '1' : 'any';
    return html`<div class="${kind}" data-field="${id}">${label}<input type="number" ${common} step="${step}" inputmode="${field.kind === 'integer' ? 'numeric' : 'decimal'}"${attr('min', field.minimum)}${attr('max', field.maximum)} value="${shown}">${n.markup}</div>`;
  }
  const type = field.format === undefined ? 'text' : INPUT_TYPES[field.format];
  let shown = value === undefined || value === null ? '' : String(value);
  if (field.format === 'date-time' && refill === undefined) shown = toLocalDateTime(value);
  const extra = field.format === 'date-time' ? html` step="1"` : '';
  return html`<div class="${kind}" data-field="${id}">${label}<input type="${type}" ${common}${attr('minlength', field.minLength)}${attr('maxlength', field.maxLength)}${extra} value="${shown}">${n.markup}</div>`;
}

/** Accept / decline / cancel for one elicitation of a round with several questions. */
function responseChoice(question: QuestionView, refill: Refill | undefined): Html {
  const name = inputName(question.index, 'action');
  const chosen = refill?.form.get(name) ?? 'accept';
  const accept = question.kind === 'url' ? 'Done: I opened it' : 'Answer';
  const radio = (value: string, text: string) =>
    html`<label class="option"><input type="radio" name="${name}" value="${value}" data-response${flag('checked', chosen === value)}> ${text}</label>`;
  return html`<fieldset class="response"><legend>Your response</legend>${radio('accept', accept)}${radio('decline', 'Decline')}${radio('cancel', 'Cancel')}</fieldset>`;
}

/** A link only for web addresses; anything else (`javascript:`, `data:`) is shown as text, never made clickable. */
function urlView(url: string): Html {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    return html`<p class="warning">The server asks you to open <code>${url}</code>, which is not a web address: it is not linked.</p>`;
  }
  return html`<p class="url">Opens a page on <strong class="host">${parsed.host}</strong>${parsed.protocol === 'http:' && !['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname) ? ' (not encrypted)' : ''}:<br><a href="${parsed.href}" target="_blank" rel="noopener noreferrer">${parsed.href}</a></p><p class="hint">Open the link, finish there, then come back and press Done.</p>`;
}

/** A message's content in words (text as is, other blocks named). */
function contentText(content: SamplingMessage['content'] | ContentBlock): Html {
  const blocks = Array.isArray(content) ? content : [content];
  return html`${blocks.map((block) =>
    block.type === 'text' ? html`<p>${block.text}</p>` : html`<p class="quiet">[${block.type}]</p>`,
  )}`;
}

/** One question of the round. `count` is how many the round has. */
export function questionView(question: QuestionView, count: number, refill: Refill | undefined): Html {
  const i = question.index;
  // The wire key (`r0.<digest>`) means nothing to a person: it is kept out of sight, as data-key, for tools.
  const heading = html`<h2 id="q${i}-title" data-key="${question.key}">${count > 1 ? `Question ${i + 1} of ${count}` : 'Question'}</h2>`;
  const several = count > 1 && (question.kind === 'form' || question.kind === 'url');
  const choice = several ? responseChoice(question, refill) : '';
  switch (question.kind) {
    case 'form':
      return html`<section class="question" aria-labelledby="q${i}-title" data-question="${i}">${heading}<p class="message">${question.message}</p>${choice}<div class="fields">${question.fields.map((field, j) => fieldView(i, j, field, refill))}</div>${question.fields.length === 0 ? html`<p class="quiet">This form has no fields: answering accepts it.</p>` : ''}</section>`;
    case 'url':
      return html`<section class="question" aria-labelledby="q${i}-title" data-question="${i}">${heading}<p class="message">${question.message}</p>${urlView(question.url)}${choice}</section>`;
    case 'sampling': {
      const { params } = question;
      const id = inputId(i, 'text');
      const n = notes(
        id,
        `The server asks for an LLM completion; you write it. About ${params.maxTokens} tokens at most.`,
        problemOf(refill, id),
      );
      const hints = params.modelPreferences?.hints?.map((h) => h.name).filter(Boolean) ?? [];
      return html`<section class="question" aria-labelledby="q${i}-title" data-question="${i}">${heading}
        ${params.systemPrompt === undefined ? '' : html`<p class="system"><span class="role">System</span> ${params.systemPrompt}</p>`}
        <ol class="conversation">${params.messages.map((m) => html`<li class="turn ${m.role}"><span class="role">${m.role}</span>${contentText(m.content)}</li>`)}</ol>
        ${hints.length > 0 ? html`<p class="quiet">Model hints: ${hints.join(', ')}</p>` : ''}
        <div class="field field-text" data-field="${id}"><label for="${id}">Your reply <span class="required" aria-hidden="true">*</span></label><textarea id="${id}" name="${inputName(i, 'text')}" rows="4" required aria-describedby="${n.describedBy}"${flag('aria-invalid="true"', n.invalid)}>${refill?.form.get(inputName(i, 'text')) ?? ''}</textarea>${n.markup}</div></section>`;
    }
    case 'roots': {
      const name = inputName(i, 'roots');
      const picked = refill === undefined ? undefined : new Set(refill.form.getAll(name));
      const boxes = question.roots.map(
        (root, k) =>
          html`<label class="option"><input type="checkbox" name="${name}" id="${inputId(i, `r${k}`)}" value="${root.uri}"${flag('checked', picked === undefined || picked.has(root.uri))}> ${root.name ?? root.uri} <code>${root.uri}</code></label>`,
      );
      return html`<section class="question" aria-labelledby="q${i}-title" data-question="${i}">${heading}<p class="message">The server asks which folders (roots) it may work in.</p><fieldset class="field" id="${inputId(i, 'roots')}"><legend>Roots to share</legend>${question.roots.length === 0 ? html`<p class="quiet">No roots are configured: the answer is an empty list.</p>` : boxes}</fieldset></section>`;
    }
  }
}
