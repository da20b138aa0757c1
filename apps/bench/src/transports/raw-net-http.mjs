// The default load generator of the HTTP bench, the same for both SDKs: JSON-RPC over keep-alive HTTP/1.1 on
// plain node:net sockets. Each in-flight request holds one connection (a pool that grows to the concurrency and
// is reused, never pipelined); request heads are precomputed per tool, bodies are written from string templates,
// and responses are read by a minimal parser (status line, Content-Length or chunked body). It plays the
// multi-round-trip loop exactly as raw-http.mjs does (the fetch-based client, `--http-client=fetch`), at a
// fraction of undici's CPU per request, so the server under test is what the ratio measures.
import { connect } from 'node:net';
import { answer } from '../flows/workload.mjs';

const VERSION = '2026-07-28';
const META = JSON.stringify({
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'bench-raw-client', version: '1.0.0' },
});
const MAX_ROUNDS = 10;
const HEADER_END = Buffer.from('\r\n\r\n');

/** A client for the endpoint at `url`: `call(tool, n)` resolves to the final result; `requests` counts POSTs. */
export function rawNetClient(url) {
  const target = new URL(url);
  const port = Number(target.port);
  const host = target.hostname;
  const heads = new Map();
  const headFor = (tool) => {
    let head = heads.get(tool);
    if (head === undefined) {
      head =
        `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: keep-alive\r\n` +
        'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n' +
        `Mcp-Protocol-Version: ${VERSION}\r\nMcp-Method: tools/call\r\nMcp-Name: ${tool}\r\nContent-Length: `;
      heads.set(tool, head);
    }
    return head;
  };
  const idle = [];
  const all = new Set();
  let nextId = 0;

  const client = {
    requests: 0,
    /** POSTs one tools/call with `params` (JSON text of the params object) and resolves to its `result`. */
    async post(tool, params) {
      const id = ++nextId;
      const body = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`;
      const request = `${headFor(tool)}${Buffer.byteLength(body)}\r\n\r\n${body}`;
      let response;
      for (let attempt = 0; response === undefined; attempt++) {
        let connection = idle.pop();
        while (connection?.closed) connection = idle.pop();
        connection ??= await open();
        try {
          response = await connection.request(request);
          idle.push(connection);
        } catch (error) {
          // The server closed an idle keep-alive connection as the request went out: once more, on a new one.
          if (attempt > 0 || !connection.closed) throw error;
        }
      }
      const { status, text } = response;
      client.requests++;
      let message;
      try {
        message = JSON.parse(text);
      } catch {
        throw new Error(`HTTP ${status}: ${text.slice(0, 200)}`);
      }
      if (message.error !== undefined) throw new Error(`HTTP ${status}: ${JSON.stringify(message.error)}`);
      if (message.id !== id) throw new Error(`response id ${message.id} for request ${id}`);
      return message.result;
    },
    async call(tool, n) {
      const base = `{"name":${JSON.stringify(tool)},"arguments":{"n":${n}},"_meta":${META}`;
      let params = `${base}}`;
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const result = await client.post(tool, params);
        if (result?.resultType !== 'input_required') return result;
        const inputResponses = {};
        for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
          inputResponses[key] = answer(request.params);
        }
        const state =
          result.requestState === undefined ? '' : `,"requestState":${JSON.stringify(result.requestState)}`;
        params = `${base},"inputResponses":${JSON.stringify(inputResponses)}${state}}`;
      }
      throw new Error(`${tool} still input_required after ${MAX_ROUNDS} rounds`);
    },
    close() {
      for (const connection of all) connection.socket.destroy();
      all.clear();
      idle.length = 0;
    },
  };

  function open() {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host, noDelay: true });
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        const connection = keepAlive(socket, () => all.delete(connection));
        all.add(connection);
        resolve(connection);
      });
    });
  }
  return client;
}

/** One keep-alive connection: `request(text)` writes a whole request and resolves to `{ status, text }`. */
function keepAlive(socket, onClose) {
  let pending;
  let buffer = Buffer.alloc(0);
  const connection = {
    socket,
    closed: false,
    request(text) {
      return new Promise((resolve, reject) => {
        pending = { resolve, reject };
        socket.write(text);
      });
    },
  };
  const fail = (error) => {
    const waiting = pending;
    pending = undefined;
    waiting?.reject(error);
  };
  socket.on('data', (chunk) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    const response = parseResponse(buffer);
    if (response === undefined) return;
    buffer = buffer.subarray(response.consumed);
    const waiting = pending;
    pending = undefined;
    waiting?.resolve(response);
  });
  socket.on('error', fail);
  socket.on('close', () => {
    connection.closed = true;
    onClose();
    fail(new Error('connection closed'));
  });
  return connection;
}

/** The first complete response in `buffer`: `{ status, text, consumed }`, or undefined when more bytes are needed. */
function parseResponse(buffer) {
  const end = buffer.indexOf(HEADER_END);
  if (end === -1) return undefined;
  const head = buffer.toString('latin1', 0, end);
  const status = Number(head.slice(9, 12));
  const bodyAt = end + 4;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length !== null) {
    const size = Number(length[1]);
    if (buffer.length < bodyAt + size) return undefined;
    return { status, text: buffer.toString('utf8', bodyAt, bodyAt + size), consumed: bodyAt + size };
  }
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) throw new Error(`unframed response: ${head}`);
  const parts = [];
  let at = bodyAt;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(buffer.toString('latin1', at, lineEnd), 16);
    const dataAt = lineEnd + 2;
    if (buffer.length < dataAt + size + 2) return undefined;
    if (size === 0) return { status, text: Buffer.concat(parts).toString('utf8'), consumed: dataAt + 2 };
    parts.push(buffer.subarray(dataAt, dataAt + size));
    at = dataAt + size + 2;
  }
}
