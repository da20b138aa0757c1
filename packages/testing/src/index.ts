// @boomerang/testing: shared test suites for Boomerang's own packages. Private; imported by tests only.

// --- transport conformance
export {
  type MakeTransportPair,
  type TransportPair,
  type TransportSuiteOptions,
  transportSuite,
} from './transport-suite.js';

// --- reading JSON-RPC responses in tests
export { errorOf, resultOf } from './wire.js';
