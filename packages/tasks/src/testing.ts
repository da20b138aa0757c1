// @boomerang/tasks/testing: the TaskStore contract as checks any store's tests run (no test framework needed).
export { sampleRecord, type TaskStoreCheck, taskStoreChecks } from './store-checks.js';
