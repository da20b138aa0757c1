// @boomerang/transport-stdio: newline-delimited JSON-RPC over stdio. The client end spawns the server as a
// child process; the server end reads stdin and writes stdout.

// --- client end
export { StdioClientTransport } from './client.js';
export type { StdioClientTransportOptions, StdioExit, StdioShutdownTimeouts } from './client-options.js';
export { defaultEnvironment } from './environment.js';

// --- server end
export { StdioServerTransport, type StdioServerTransportOptions } from './server.js';
