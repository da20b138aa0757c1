// A stand-in MCP server in plain Node (no Boomerang code) for the client transport's tests; it runs as is.
// It answers every request with `{ echo: params }` and exits when stdin ends, except for these methods:
//   exit { code }      exit at once with that code, without answering (a crash mid-request)
//   kill { signal }    send itself that signal, without answering
//   stderr { text }    write `text` to stderr, then answer
//   noise {}           write lines that are not JSON-RPC messages to stdout, then answer
//   closeStdout {}     answer, then close stdout and keep running
//   split {}           answer in three writes 20 ms apart, ending the line with CRLF
//   acme/ask { q }     a vendor MRTR method: input_required asking `q` (state "asked"), then, on the retry with
//                      the answer and the state, `{ resultType: "complete", answer }`
// Flags (argv): --ignore-eof keeps running after stdin ends; --ignore-sigterm also survives SIGTERM;
// --exit-at-start=N exits with code N before reading anything; --env prints its environment as a notification.
import { createInterface } from 'node:readline';

const flags = new Set(process.argv.slice(2));
const exitAtStart = process.argv.find((arg) => arg.startsWith('--exit-at-start='));
if (exitAtStart) process.exit(Number(exitAtStart.split('=')[1]));
if (flags.has('--ignore-sigterm'))
  process.on('SIGTERM', () => console.error('fake-server: ignoring SIGTERM'));
if (flags.has('--ignore-eof') || flags.has('--ignore-sigterm')) setInterval(() => {}, 1 << 30);

const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
if (flags.has('--env')) write({ jsonrpc: '2.0', method: 'env', params: { env: process.env } });

const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
lines.on('line', (line) => {
  const message = JSON.parse(line);
  const params = message.params ?? {};
  switch (message.method) {
    case 'exit':
      process.exit(params.code);
      break;
    case 'kill':
      process.kill(process.pid, params.signal);
      return;
    case 'stderr':
      console.error(params.text);
      break;
    case 'split': {
      const text = `${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { echo: params, text: '日本 🪃' } })}\r\n`;
      const bytes = Buffer.from(text);
      const cuts = [0, 20, bytes.indexOf(0xf0) + 2, bytes.length]; // the second cut splits the emoji's bytes
      for (let i = 1; i < cuts.length; i++) {
        setTimeout(() => process.stdout.write(bytes.subarray(cuts[i - 1], cuts[i])), 20 * (i - 1));
      }
      return;
    }
    case 'acme/ask': {
      const result =
        params.requestState === 'asked'
          ? { resultType: 'complete', answer: params.inputResponses?.q?.content?.q }
          : {
              resultType: 'input_required',
              requestState: 'asked',
              inputRequests: {
                q: {
                  method: 'elicitation/create',
                  params: {
                    mode: 'form',
                    message: params.q,
                    requestedSchema: { type: 'object', properties: { q: { type: 'string' } } },
                  },
                },
              },
            };
      write({ jsonrpc: '2.0', id: message.id, result });
      return;
    }
    case 'noise':
      process.stdout.write('hello, I am not JSON\n[1,2,3]\n{"jsonrpc":"1.0","id":1}\n\n   \n42\n');
      break;
  }
  if (message.id !== undefined) write({ jsonrpc: '2.0', id: message.id, result: { echo: params } });
  if (message.method === 'closeStdout') process.stdout.end();
});
