// @boomerang/transport-memory: a linked in-process transport pair for tests and embedding.

export { createInMemoryPair, type InMemoryPair } from './in-memory.js';
