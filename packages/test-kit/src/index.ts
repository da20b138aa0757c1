// @boomerang/test-kit: shared test suites for Boomerang's own packages. Private; imported by tests only.

// --- the client's transport contract (memory and stdio through the correlator, HTTP natively)
export {
  type ConnectRequestTransport,
  type RequestTransportSuiteOptions,
  requestTransportSuite,
} from './request-transport-suite.js';
// --- a step of a test that fails with its own name instead of timing the whole test out
export { within } from './steps.js';
// --- the stream transport contract (memory, stdio)
export {
  type MakeTransportPair,
  type StreamTransportSuiteOptions,
  streamTransportSuite,
  type TransportPair,
} from './stream-transport-suite.js';
// --- the suites' server, for the stream side of a request-transport run
export { type SuiteServerLog, serveOverStream, suiteServer } from './suite-server.js';
// --- reading JSON-RPC responses in tests
export { errorOf, resultOf } from './wire.js';
