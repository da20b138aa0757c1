import type { JSONRPCMessage } from '@boomerang/protocol';
import type { Direction } from './tap.js';

const MRTR_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null;
const json = (value: unknown) => JSON.stringify(value ?? {});

/** `sl1_abcdefgh…wxyz (196 chars)`: enough to see that the echo is byte for byte, not the whole token. */
export function stateSummary(state: string): string {
  const head = state.length > 24 ? `${state.slice(0, 12)}…${state.slice(-8)}` : state;
  return `${head} (${state.length} chars)`;
}

/** One line for an input request: what kind it is and what it asks (a kind without a describer: its method). */
export function describeInputRequest(request: unknown): string {
  if (!isObj(request)) return 'an input request of unknown shape';
  const describe = typeof request.method === 'string' ? DESCRIBERS.get(request.method) : undefined;
  return describe === undefined
    ? String(request.method)
    : describe(isObj(request.params) ? request.params : {});
}

/** What the demo shows of the params of each kind of question that has more to show than its method. */
const DESCRIBERS: ReadonlyMap<string, (params: Obj) => string> = new Map([
  [
    'elicitation/create',
    (params: Obj) => {
      if (params.mode === 'url') return `elicitation/create (url): ${params.message} → ${params.url}`;
      const schema = isObj(params.requestedSchema) ? params.requestedSchema : {};
      const properties = isObj(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      const fields = Object.entries(properties).map(([name, field]) => {
        const type = isObj(field) ? String(field.type ?? (field.oneOf === undefined ? '?' : 'string')) : '?';
        return `${name}: ${type}${required.includes(name) ? '' : '?'}`;
      });
      return `elicitation/create (form): ${params.message}  {${fields.join(', ')}}`;
    },
  ],
  [
    'sampling/createMessage',
    (params: Obj) => {
      const messages = Array.isArray(params.messages) ? params.messages : [];
      const first = messages[0];
      const text = isObj(first) && isObj(first.content) ? first.content.text : undefined;
      return `sampling/createMessage: ${String(text ?? '')} (maxTokens ${params.maxTokens})`;
    },
  ],
]);

/** One line for an input response: an elicitation's action and content, a completion, or a roots list. */
export function describeInputResponse(response: unknown): string {
  if (!isObj(response)) return String(response);
  if (typeof response.action === 'string') {
    return response.content === undefined ? response.action : `${response.action} ${json(response.content)}`;
  }
  if (Array.isArray(response.roots)) {
    return `roots [${response.roots.map((root) => (isObj(root) ? String(root.uri) : '?')).join(', ')}]`;
  }
  if (isObj(response.content) && response.content.type === 'text') {
    return `${String(response.role)} (${String(response.model)}): ${String(response.content.text)}`;
  }
  return json(response);
}

/** One line for a complete result. */
function describeComplete(result: Obj): string {
  if (Array.isArray(result.messages)) {
    return `${result.messages.length} prompt message(s)`;
  }
  if (Array.isArray(result.content)) {
    const text = result.content
      .map((block) => (isObj(block) && block.type === 'text' ? String(block.text) : ''))
      .join(' ');
    return `${result.isError === true ? 'isError: ' : ''}${text}`;
  }
  if (Array.isArray(result.contents)) return `${result.contents.length} resource content(s)`;
  return json(result);
}

/**
 * Prints the rounds of multi-round-trip calls as a client sees them on its transport: each request (the
 * retry's answers and echoed state), each `input_required` (every question, the size of the sealed state) and
 * the final result. Other methods (lists, discovery) are printed as one line each. Feed it from
 * {@link tapTransport}; it returns the lines to print.
 */
export function createRoundPrinter(): (direction: Direction, message: JSONRPCMessage) => string[] {
  const calls = new Map<string, { method: string; round: number }>();
  let round = 0;
  return (direction, message) => {
    const m = message as Obj;
    if (direction === 'out') {
      if (typeof m.method !== 'string' || m.id === undefined) return [];
      const params = isObj(m.params) ? m.params : {};
      if (!MRTR_METHODS.has(m.method)) {
        calls.set(String(m.id), { method: m.method, round: 0 });
        return [`→ ${m.method}`];
      }
      const retry = params.inputResponses !== undefined || params.requestState !== undefined;
      round = retry ? round + 1 : 1;
      calls.set(String(m.id), { method: m.method, round });
      const target = params.name ?? params.uri ?? '';
      const lines = [`→ round ${round}: ${m.method} ${String(target)} ${json(params.arguments)}`];
      if (isObj(params.inputResponses)) {
        for (const [key, answer] of Object.entries(params.inputResponses)) {
          lines.push(`    answer   ${key} = ${describeInputResponse(answer)}`);
        }
      }
      if (typeof params.requestState === 'string') {
        lines.push(`    state    ${stateSummary(params.requestState)}, echoed byte for byte`);
      }
      return lines;
    }
    const call = m.id === undefined ? undefined : calls.get(String(m.id));
    if (call === undefined) return [];
    calls.delete(String(m.id));
    if (isObj(m.error)) return [`← error ${String(m.error.code)}: ${String(m.error.message)}`];
    const result = isObj(m.result) ? m.result : {};
    if (call.round === 0) {
      const list = result.tools ?? result.prompts ?? result.resources;
      return Array.isArray(list)
        ? [`← ${list.map((item) => (isObj(item) ? String(item.name) : '?')).join(', ')}`]
        : ['← ok'];
    }
    if (result.resultType !== 'input_required') return [`← complete: ${describeComplete(result)}`];
    const lines = ['← input_required'];
    const requests = isObj(result.inputRequests) ? result.inputRequests : {};
    for (const [key, request] of Object.entries(requests)) {
      lines.push(`    question ${key} = ${describeInputRequest(request)}`);
    }
    lines.push(
      typeof result.requestState === 'string'
        ? `    state    ${stateSummary(result.requestState)}, sealed: opaque to the client`
        : '    state    none',
    );
    return lines;
  };
}
