// @boomerang/transport-memory: a linked in-process transport pair for tests and embedding.

export {
  type ConnectInMemoryOptions,
  connectInMemory,
  type InMemoryClientEnd,
  type InMemoryServerEnd,
} from './connect.js';
export { createInMemoryPair, type InMemoryPair } from './in-memory.js';
