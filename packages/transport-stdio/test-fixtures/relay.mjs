// The far end of the stdio transport-suite pair: a program that serves a StdioServerTransport on its own
// stdin/stdout and relays every message to and from the test process over TCP (argv[2] is the port). So the
// suite's "server" end, in the test process, talks to the StdioClientTransport through a real child process and a
// real StdioServerTransport, both ways. Closing either side closes the other; then the program exits.
import { connect } from 'node:net';
import { StdioServerTransport } from '@boomerang/transport-stdio';

const socket = connect(Number(process.argv[2]), '127.0.0.1');
await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));

const stdio = new StdioServerTransport();
const tcp = new StdioServerTransport({ stdin: socket, stdout: socket });

const pump = async (from, to) => {
  for await (const message of from.messages) await to.send(message).catch(() => {});
  await Promise.all([stdio.close(), tcp.close()]);
};
await Promise.all([pump(stdio, tcp), pump(tcp, stdio)]);
socket.destroy();
