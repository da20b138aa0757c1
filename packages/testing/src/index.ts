// @boomerang/testing: an in-memory harness for users' tests of their MCP servers.

// --- answers a test scripts
export {
  type AssistantMessageOptions,
  accept,
  assistantMessage,
  cancel,
  decline,
  type ElicitContent,
  roots,
} from './answers.js';
// --- the harness
export {
  connectTestClient,
  type TestClient,
  type TestClientOptions,
  type TestServer,
} from './harness.js';
// --- what it records
export type { RecordedCall, RecordedError, RecordedRound } from './recorder.js';
// --- scripting which answer each question gets
export type { Answer, AnswerCondition, AnswerRule, QuestionKind, ScriptedAnswers } from './script.js';
