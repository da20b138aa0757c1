// The floor of the HTTP bench: the workload answered by a hand-written JSON-RPC server on bare node:http, with
// none of an SDK's work — no Host/Origin check, no header or schema validation, no capability or version
// negotiation, no cancellation, and the wizard's state echoed in plain text (neither sealed nor bound). What is
// left is what node:http, JSON.parse and JSON.stringify cost per request on this machine, so the table shows how
// much of each SDK's CPU per request is its own. Not a server to copy: it trusts everything it is sent.
import { createServer } from 'node:http';
import { CONFIRM_MESSAGE, expected, stepKey, WIZARD_STEPS, wizardMessage } from '../flows/workload.mjs';

const JSON_HEADERS = { 'content-type': 'application/json' };

function elicit(message, schema) {
  return { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: schema } };
}

const CONFIRM = {
  resultType: 'input_required',
  inputRequests: {
    confirm: elicit(CONFIRM_MESSAGE, { type: 'object', properties: { ok: { type: 'boolean' } } }),
  },
};
const STEP_SCHEMA = { type: 'object', properties: { value: { type: 'string' } } };

/** The `result` of one tools/call of the workload (also the hand-written fetch floor of fetch-server.mjs). */
export function callTool({ name, arguments: args, inputResponses, requestState }) {
  const n = args.n;
  const text = (value) => ({ content: [{ type: 'text', text: value }] });
  if (name === 'plain') return text(expected.plain(n));
  if (name === 'confirm') {
    return inputResponses?.confirm?.content?.ok === true ? text(expected.confirm(n)) : CONFIRM;
  }
  const answers = requestState === undefined ? [] : JSON.parse(requestState);
  const got = inputResponses?.[stepKey(answers.length + 1)]?.content?.value;
  if (typeof got === 'string') answers.push(got);
  if (answers.length === WIZARD_STEPS) return text(expected.wizard(n));
  const k = answers.length + 1;
  return {
    resultType: 'input_required',
    inputRequests: { [stepKey(k)]: elicit(wizardMessage(k), STEP_SCHEMA) },
    requestState: JSON.stringify(answers),
  };
}

/** Listens on 127.0.0.1 (a free port); resolves to `{ url, close }`. */
export async function serveFloor() {
  const http = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      let body;
      try {
        const message = JSON.parse(Buffer.concat(chunks).toString());
        body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: callTool(message.params) });
      } catch (error) {
        body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: String(error) } });
      }
      res.writeHead(200, { ...JSON_HEADERS, 'content-length': Buffer.byteLength(body) }).end(body);
    });
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: new URL(`http://127.0.0.1:${http.address().port}/mcp`),
    close: () =>
      new Promise((resolve) => {
        http.close(resolve);
        http.closeAllConnections();
      }),
  };
}
