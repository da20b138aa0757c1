// The stdio program of "Your first server in 5 minutes". It serves on this process's stdin/stdout as soon as it
// is loaded, so first-server.examples.test.ts compiles it and runs it as a child process instead of importing it.
// #region stdio
import { StdioServerTransport } from '@boomerang/transport-stdio';
import { server } from './first-server.examples.js';

// Serves until the client closes stdin. Log to stderr: stdout carries protocol messages only.
await server.connect(new StdioServerTransport());
console.error('notes: serving on stdio');
// #endregion stdio
