// Cold start: spawn → first stdio `tools/call` answered. The request line is written right after `spawn()` (it
// waits in the pipe while the server loads), the clock stops when the response line with its id arrives, then
// stdin is closed and the process waited for (SIGKILL after 2 s). `node -e 0` (spawn → exit) is the floor.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { STDIO_SERVER } from './stdio-clients.mjs';

/** The first `tools/call` of a cold-start run, as one stdio line (cold-start.bench.mjs sends it too). */
export const REQUEST = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'plain',
    arguments: { n: 1 },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'cold-start', version: '1.0.0' },
    },
  },
})}\n`;

/** Milliseconds from spawn to the first `tools/call` answered by the stdio server of `side`. */
export function coldStart(side, track) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [STDIO_SERVER, side], { stdio: ['pipe', 'pipe', 'inherit'] });
    track?.(child);
    let buffer = '';
    let answered;
    const killer = () => setTimeout(() => child.kill('SIGKILL'), 2000).unref();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      if (answered !== undefined) return;
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        const message = JSON.parse(line);
        if (message.id !== 1) continue;
        answered = performance.now() - started;
        if (message.result?.content?.[0]?.text !== 'plain 1') {
          answered = Number.NaN;
          reject(new Error(`${side}: bad first answer ${line.slice(0, 200)}`));
        }
        child.stdin.end();
        killer();
        return;
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (answered === undefined) reject(new Error(`${side} exited (${code ?? signal}) before answering`));
      else if (!Number.isNaN(answered)) resolve(answered);
    });
    child.stdin.write(REQUEST);
  });
}

/** Milliseconds from spawn to exit of `node -e 0`. */
export function nodeFloor(track) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    track?.(child);
    child.on('error', reject);
    child.on('exit', () => resolve(performance.now() - started));
  });
}
