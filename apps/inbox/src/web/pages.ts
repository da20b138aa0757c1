// The inbox's pages: the list of flows, one flow (its questions as a form, or where it stands, or its result), the
// sign-in help and the error pages. Plain server-rendered HTML; the script (assets.ts) only adds checks before
// submit and waits for a resume to finish. Everything works without it.
import type { InputRequest, Root } from '@boomerang/protocol';
import { FINAL_STATUSES, type Flow, type FlowRound, questionsOf } from '../flow.js';
import { attr, type Html, html } from './html.js';
import { questionView, type Refill } from './question-views.js';
import { onlyElicitations, questionViews } from './questions.js';

/** What every page knows: who is signed in, and the CSRF token of their forms. */
export interface PageContext {
  readonly person?: string;
  readonly csrf?: string;
  readonly now: number;
}

/** A whole page. */
export function layout(title: string, context: PageContext, body: Html, mainAttrs: Html = html``): string {
  const signedIn =
    context.person === undefined
      ? ''
      : html`<form method="post" action="/sign-out" class="who"><span>Signed in as <strong>${context.person}</strong></span> <input type="hidden" name="csrf" value="${context.csrf ?? ''}"><button type="submit" class="quiet">Sign out</button></form>`;
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Boomerang inbox</title><link rel="stylesheet" href="/assets/inbox.css"><script src="/assets/inbox.js" defer></script></head><body><a class="skip" href="#main">Skip to content</a><header class="top"><a href="/" class="brand">Boomerang inbox</a>${signedIn}</header><main id="main"${mainAttrs}>${body}</main></body></html>`}`;
}

/** "in 9 min", "2 h ago". */
export function relative(at: number, now: number): string {
  const seconds = Math.round((at - now) / 1000);
  if (seconds === 0) return 'just now';
  const magnitude = Math.abs(seconds);
  const amount =
    magnitude < 60
      ? `${magnitude} s`
      : magnitude < 3600
        ? `${Math.round(magnitude / 60)} min`
        : magnitude < 86_400 * 2
          ? `${Math.round(magnitude / 3600)} h`
          : `${Math.round(magnitude / 86_400)} days`;
  return seconds >= 0 ? `in ${amount}` : `${amount} ago`;
}

function time(at: number, now: number): Html {
  const iso = new Date(at).toISOString();
  return html`<time datetime="${iso}" title="${iso}">${relative(at, now)}</time>`;
}

/** `order_book "Solaris"`: the tool and its arguments, short. */
export function flowTitle(flow: Flow): string {
  const args = Object.values(flow.arguments)
    .map((value) => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value)))
    .join(', ');
  const short = args.length > 80 ? `${args.slice(0, 79)}…` : args;
  return short === '' ? flow.tool : `${flow.tool} ${short}`;
}

const STATUS_WORDS: Readonly<Record<Flow['status'], string>> = {
  pending: 'Waiting for an answer',
  answered: 'Answered, waiting for a resumer',
  resuming: 'Resuming',
  completed: 'Completed',
  failed: 'Failed',
  rejected: 'Refused by the server',
  expired: 'Expired',
  dropped: 'Dropped',
};

function badge(flow: Flow): Html {
  return html`<span class="badge status-${flow.status}">${STATUS_WORDS[flow.status]}</span>`;
}

/** "round 2", or "answered at once" for a flow that never asked. */
function roundWords(flow: Flow): string {
  return flow.round === 0 ? 'answered at once' : `round ${flow.round}`;
}

function whoMayAnswer(flow: Flow): string {
  return flow.answerers === undefined || flow.answerers.length === 0 ? 'anyone' : flow.answerers.join(', ');
}

/** What a flow's row says it asks, by the kind of its first question (a new kind is a compile error here). */
const ASKS: { readonly [M in InputRequest['method']]: (question: InputRequest) => string } = {
  'elicitation/create': (question) =>
    question.method === 'elicitation/create' ? question.params.message : '',
  'sampling/createMessage': () => 'Write a reply for the server’s LLM request',
  'roots/list': () => 'Share roots',
};

function flowRow(flow: Flow, now: number): Html {
  const asks = Object.values(questionsOf(flow));
  const first = asks[0];
  const question = first === undefined ? '' : ASKS[first.method](first);
  const when =
    flow.status === 'pending'
      ? html`due ${time(flow.deadline, now)}`
      : html`updated ${time(flow.updatedAt, now)}`;
  return html`<li class="flow-row"><a href="/flows/${flow.id}" class="flow-link">${flowTitle(flow)}</a> ${badge(flow)}<div class="meta">${flow.note === undefined ? '' : html`${flow.note} · `}${flow.server} · ${roundWords(flow)} · ${when}${flow.status === 'pending' ? html` · for ${whoMayAnswer(flow)}` : ''}</div>${question === '' ? '' : html`<div class="ask">${question}${asks.length > 1 ? html` <span class="quiet">(+${asks.length - 1} more)</span>` : ''}</div>`}</li>`;
}

function section(title: string, id: string, flows: readonly Flow[], now: number, empty: string): Html {
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${title} <span class="count">${flows.length}</span></h2>${flows.length === 0 ? html`<p class="quiet">${empty}</p>` : html`<ul class="flows">${flows.map((f) => flowRow(f, now))}</ul>`}</section>`;
}

/**
 * The list of the flows that concern the person (the store filters them: `concerns` in flow.ts): what waits for
 * them, what is being resumed, and what ended.
 */
export function listPage(flows: readonly Flow[], context: PageContext & { readonly person: string }): string {
  const { now } = context;
  // Most urgent first.
  const mine = flows.filter((f) => f.status === 'pending').sort((a, b) => a.deadline - b.deadline);
  const moving = flows.filter((f) => f.status === 'answered' || f.status === 'resuming');
  const ended = flows.filter((f) => FINAL_STATUSES.includes(f.status));
  const body = html`<h1>Pending questions</h1>${section('Waiting for you', 'mine', mine, now, 'Nothing to answer. The worker parks its questions here as they come.')}${moving.length > 0 ? section('Being resumed', 'moving', moving, now, '') : ''}${section('Finished', 'ended', ended, now, 'No flow has finished yet.')}`;
  return layout('Pending questions', context, body);
}

/** A `CallToolResult` in words: its text blocks, other blocks named, structured content as JSON. */
function resultView(result: unknown): Html {
  const value = (typeof result === 'object' && result !== null ? result : {}) as {
    content?: unknown;
    isError?: unknown;
    structuredContent?: unknown;
  };
  const blocks = Array.isArray(value.content) ? (value.content as Record<string, unknown>[]) : [];
  const shown = blocks.map((block) => {
    if (block.type === 'text') return html`<p class="result-text">${String(block.text)}</p>`;
    if (block.type === 'resource_link' && typeof block.uri === 'string')
      return html`<p>Link: <code>${block.uri}</code></p>`;
    return html`<p class="quiet">[${String(block.type)}]</p>`;
  });
  const structured =
    value.structuredContent === undefined
      ? ''
      : html`<pre class="structured">${JSON.stringify(value.structuredContent, null, 2)}</pre>`;
  return value.isError === true
    ? html`<div class="result error-result" role="status"><h2>The tool reported an error</h2>${shown}${structured}</div>`
    : html`<div class="result" role="status"><h2>Result</h2>${shown}${structured}</div>`;
}

function historyView(rounds: readonly FlowRound[], now: number): Html {
  if (rounds.length === 0) return html``;
  return html`<section aria-labelledby="history"><h2 id="history">History</h2><ol class="history">${rounds.map(
    (r) =>
      html`<li>Round ${r.round}: answered by <strong>${r.answeredBy}</strong> ${time(r.answeredAt, now)}${r.resumedBy === undefined ? ' · not sent yet' : html` · sent by ${r.resumedBy}${r.resumedAt === undefined ? '' : html` ${time(r.resumedAt, now)}`} → ${r.outcome ?? ''}`}</li>`,
  )}</ol></section>`;
}

/** What the page says above a refused form: each problem, linked to its control. */
function problemSummary(refill: Refill | undefined): Html {
  const problems = refill?.problems ?? [];
  return html`<div class="error-summary" id="error-summary" role="alert" tabindex="-1"${problems.length === 0 ? html` hidden` : ''}><h2>Please fix ${problems.length === 1 ? 'this' : 'these'}:</h2><ul>${problems.map((p) => html`<li><a href="#${p.id}">${p.label}: ${p.message}</a></li>`)}</ul></div>`;
}

/**
 * One flow that concerns `person` (the app shows no other: `concerns` in flow.ts): its form while it waits for an
 * answer, or where it stands, its result, its history.
 */
export function flowPage(
  flow: Flow,
  rounds: readonly FlowRound[],
  roots: readonly Root[],
  context: PageContext & { readonly person: string },
  refill?: Refill,
  notice?: Html,
): string {
  const { now } = context;
  const head = html`<p class="crumbs"><a href="/">All flows</a></p><h1>${flowTitle(flow)}</h1><p class="meta">${badge(flow)} on <strong>${flow.server}</strong> · ${roundWords(flow)} · started ${time(flow.createdAt, now)}${flow.note === undefined ? '' : html` · ${flow.note}`}</p>${notice ?? ''}`;
  let main: Html;
  const questions = questionViews(questionsOf(flow), roots);
  if (flow.status === 'pending') {
    const urlOnly = questions.length === 1 && questions[0]?.kind === 'url';
    const elicitations = onlyElicitations(questions);
    main = html`<p class="deadline">Answer ${time(flow.deadline, now)} (deadline). Who may answer: ${whoMayAnswer(flow)}.</p>
      <form method="post" action="/flows/${flow.id}" class="answer" data-check="/flows/${flow.id}/check">
      ${problemSummary(refill)}
      <input type="hidden" name="round" value="${flow.round}"><input type="hidden" name="csrf" value="${context.csrf ?? ''}">
      ${questions.map((q) => questionView(q, questions.length, refill))}
      <div class="actions" id="actions"><p class="field-error" id="actions-error">${refill?.problems.find((p) => p.id === 'actions')?.message ?? ''}</p>
      <button type="submit" name="intent" value="accept" class="primary">${urlOnly ? 'Done' : 'Send answers'}</button>
      ${elicitations ? html`<button type="submit" name="intent" value="decline" formnovalidate>Decline</button><button type="submit" name="intent" value="cancel" formnovalidate>Cancel</button>` : ''}
      <button type="submit" name="intent" value="drop" formnovalidate class="quiet" aria-describedby="drop-hint">Drop this flow</button>
      <p class="hint" id="drop-hint">${elicitations ? 'Decline and Cancel send that answer to the server. ' : ''}Drop ends the flow here without answering; the server is not told.</p></div>
      </form>`;
  } else if (flow.status === 'answered' || flow.status === 'resuming') {
    main = html`<p class="notice working" role="status" aria-live="polite">Answered by <strong>${flow.answeredBy ?? 'someone'}</strong>. ${flow.status === 'answered' ? 'Waiting for a resumer to send the answers…' : `${flow.claimedBy ?? 'A resumer'} is sending the answers…`} This page updates by itself.</p><noscript><p><a href="/flows/${flow.id}">Reload</a> to see the next question or the result.</p></noscript>`;
  } else if (flow.status === 'completed') {
    main = resultView(flow.result);
  } else {
    main = html`<div class="problem-box status-${flow.status}" role="alert"><h2>${STATUS_WORDS[flow.status]}</h2><p>${flow.error ?? ''}</p>${flow.status === 'expired' ? html`<p>Expired flows are not retried: the worker has to ask again.</p>` : ''}</div>`;
  }
  const polling = flow.status === 'answered' || flow.status === 'resuming';
  const attrs = polling
    ? html` data-poll="/flows/${flow.id}/status"${attr('data-status', flow.status)}${attr('data-round', flow.round)}`
    : html``;
  return layout(flowTitle(flow), context, html`${head}${main}${historyView(rounds, now)}`, attrs);
}

/** A page that only says something (errors, refusals, sign-in help), with a way back. */
export function messagePage(
  title: string,
  message: Html | string,
  context: PageContext,
  back = true,
): string {
  return layout(
    title,
    context,
    html`<h1>${title}</h1><div class="message-box" role="alert">${typeof message === 'string' ? html`<p>${message}</p>` : message}</div>${back ? html`<p><a href="/">Back to the inbox</a></p>` : ''}`,
  );
}
