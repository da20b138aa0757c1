// What the fleet's traces say: of the 3-round flows the load generator completed, how many form one trace (the
// client's call span, a client span per round, each server round a child of its client round), and how many of
// those were served by more than one instance. And one such flow as an HTML waterfall.
import { Kind, type ReceivedSpan } from './receiver.js';

/** The verdict on the traces of some flows. */
export interface TraceVerdict {
  /** Flows whose trace is complete. */
  readonly complete: number;
  /** Flows looked at. */
  readonly total: number;
  /** Complete flows whose server rounds ran on more than one instance. */
  readonly spread: number;
  /** Why the first incomplete traces are not complete (at most five). */
  readonly problems: readonly string[];
  /** A complete trace served by the most instances, for the waterfall. */
  readonly example: readonly ReceivedSpan[] | undefined;
}

/**
 * Checks the trace of each flow in `traceIds` among `spans`: complete when it has the client's call span (kind
 * internal, named `call`), at least one client round span under it, and under each client round exactly one server
 * span, every span in the same trace.
 */
export function checkTraces(
  spans: readonly ReceivedSpan[],
  traceIds: readonly string[],
  call: string,
): TraceVerdict {
  const byTrace = new Map<string, ReceivedSpan[]>();
  for (const span of spans) {
    let list = byTrace.get(span.traceId);
    if (list === undefined) {
      list = [];
      byTrace.set(span.traceId, list);
    }
    list.push(span);
  }
  let complete = 0;
  let spread = 0;
  const problems: string[] = [];
  let example: ReceivedSpan[] | undefined;
  let exampleInstances = 0;
  for (const traceId of traceIds) {
    const trace = byTrace.get(traceId) ?? [];
    const problem = problemOf(trace, call);
    if (problem !== undefined) {
      if (problems.length < 5) problems.push(`${traceId}: ${problem}`);
      continue;
    }
    complete++;
    const instances = new Set(trace.filter((s) => s.kind === Kind.server).map((s) => s.instance)).size;
    if (instances > 1) spread++;
    if (instances > exampleInstances) {
      example = trace;
      exampleInstances = instances;
    }
  }
  return { complete, total: traceIds.length, spread, problems, example };
}

function problemOf(trace: readonly ReceivedSpan[], call: string): string | undefined {
  const calls = trace.filter((s) => s.kind === Kind.internal && s.name === call);
  if (calls.length !== 1) return `${calls.length} call spans`;
  const root = calls[0] as ReceivedSpan;
  const rounds = trace.filter((s) => s.kind === Kind.client && s.parentSpanId === root.spanId);
  if (rounds.length === 0) return 'no client round span';
  for (const round of rounds) {
    const served = trace.filter((s) => s.kind === Kind.server && s.parentSpanId === round.spanId);
    if (served.length !== 1)
      return `round ${String(round.attributes['mcp.mrtr.round'])}: ${served.length} server spans`;
  }
  return undefined;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** One trace as a self-contained HTML waterfall: a row per span, indented under its parent, a bar on the time axis. */
export function waterfall(trace: readonly ReceivedSpan[], title: string): string {
  let start = trace[0]?.startNs ?? 0n;
  for (const span of trace) if (span.startNs < start) start = span.startNs;
  let end = start + 1n;
  for (const span of trace) if (span.endNs > end) end = span.endNs;
  const total = Number(end - start);
  const children = new Map<string | undefined, ReceivedSpan[]>();
  const ids = new Set(trace.map((s) => s.spanId));
  for (const span of trace) {
    const parent =
      span.parentSpanId !== undefined && ids.has(span.parentSpanId) ? span.parentSpanId : undefined;
    const list = children.get(parent) ?? [];
    list.push(span);
    children.set(parent, list);
  }
  const instances = [...new Set(trace.map((s) => `${s.service}/${s.instance}`))];
  const palette = ['#4f7cac', '#c0504d', '#9bbb59', '#8064a2', '#f79646', '#4bacc6', '#7f7f7f'];
  const colour = (span: ReceivedSpan) =>
    palette[instances.indexOf(`${span.service}/${span.instance}`) % palette.length];
  const kinds: Record<number, string> = { 1: 'internal', 2: 'server', 3: 'client' };
  const rows: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    const list = [...(children.get(parent) ?? [])].sort((a, b) => (a.startNs < b.startNs ? -1 : 1));
    for (const span of list) {
      const left = (Number(span.startNs - start) / total) * 100;
      const width = Math.max(0.4, (Number(span.endNs - span.startNs) / total) * 100);
      const ms = (Number(span.endNs - span.startNs) / 1e6).toFixed(2);
      const round = span.attributes['mcp.mrtr.round'];
      const outcome = span.attributes['mcp.mrtr.outcome'];
      const label = `${span.name} · ${kinds[span.kind] ?? span.kind}${round === undefined ? '' : ` · round ${round}`}${
        outcome === undefined ? '' : ` · ${outcome}`
      }`;
      rows.push(
        `<div class="row"><div class="name" style="padding-left:${depth * 18}px"><b>${escapeHtml(
          `${span.service} ${span.instance}`,
        )}</b> ${escapeHtml(label)}</div><div class="lane"><div class="bar" style="left:${left.toFixed(2)}%;width:${width.toFixed(
          2,
        )}%;background:${colour(span)}"></div><span class="ms" style="${
          left + width > 85
            ? `right:${(100 - left).toFixed(2)}%;padding-right:6px`
            : `left:${(left + width).toFixed(2)}%;padding-left:6px`
        }">${ms} ms</span></div></div>`,
      );
      walk(span.spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  const legend = instances
    .map(
      (name, i) =>
        `<span><i style="background:${palette[i % palette.length]}"></i>${escapeHtml(name)}</span>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fff}
h1{font-size:18px;margin:0 0 4px}p{margin:0 0 16px;color:#555}
.row{display:grid;grid-template-columns:520px 1fr;align-items:center;border-bottom:1px solid #eee;min-height:28px}
.name{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-size:13px}
.lane{position:relative;height:18px}
.bar{position:absolute;top:2px;height:14px;border-radius:3px}
.ms{position:absolute;top:0;font-size:11px;color:#555;white-space:nowrap}
.legend span{margin-right:16px;font-size:13px}.legend i{display:inline-block;width:12px;height:12px;margin-right:6px;border-radius:2px;vertical-align:-1px}
</style></head><body>
<h1>${escapeHtml(title)}</h1>
<p>trace ${escapeHtml(trace[0]?.traceId ?? '')} · ${(total / 1e6).toFixed(1)} ms · ${trace.length} spans</p>
<div class="legend">${legend}</div>
${rows.join('\n')}
</body></html>
`;
}
