// @boomerang/demo-kit (private): what the demo apps share to show MRTR traffic round by round.

export {
  createRoundPrinter,
  describeInputRequest,
  describeInputResponse,
  stateSummary,
} from './rounds.js';
export { type Direction, tapTransport } from './tap.js';
