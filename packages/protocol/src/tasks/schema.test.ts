// The tasks extension's wire shapes: the spec's own messages parse, every required member is enforced (derived
// from the extension's schema.json when ../shared/spec is present), and what the spec forbids is refused.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  applyMutation,
  type JsonSchemaNode,
  requiredFieldMutations,
  specRoot,
  synthesize,
} from '../schema/test-support/spec-harness.js';
import * as tasks from './index.js';
import {
  CreateTaskResultSchema,
  DetailedTaskSchema,
  GetTaskResultSchema,
  isTaskStatus,
  isTerminal,
  TASK_STATUSES,
  TaskSchema,
} from './index.js';

const task = {
  taskId: '786512e2-9e0d-44bd-8f29-789f320fe840',
  status: 'working',
  createdAt: '2025-11-25T10:30:00Z',
  lastUpdatedAt: '2025-11-25T10:50:00Z',
  ttlMs: 3600000,
  pollIntervalMs: 5000,
};
const nameQuestion = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Please enter your name.',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
};

describe('@boomerang/protocol/tasks', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(tasks).sort()).toEqual([
      'CreateTaskResultSchema',
      'DetailedTaskSchema',
      'GetTaskResultSchema',
      'TASKS_EXTENSION',
      'TASK_STATUSES',
      'TaskSchema',
      'isTaskStatus',
      'isTerminal',
    ]);
    expect(tasks.TASKS_EXTENSION).toBe('io.modelcontextprotocol/tasks');
  });

  it('parses the spec’s own messages and keeps them as they were', () => {
    const messages: [typeof GetTaskResultSchema, unknown][] = [
      [CreateTaskResultSchema as never, { ...task, resultType: 'task', statusMessage: 'In progress.' }],
      [GetTaskResultSchema, { ...task, resultType: 'complete' }],
      [
        GetTaskResultSchema,
        { ...task, resultType: 'complete', status: 'input_required', inputRequests: { name: nameQuestion } },
      ],
      [
        GetTaskResultSchema,
        {
          ...task,
          resultType: 'complete',
          status: 'completed',
          result: { content: [{ type: 'text', text: 'Hello, Luca!' }], isError: false },
        },
      ],
      [
        GetTaskResultSchema,
        {
          ...task,
          resultType: 'complete',
          status: 'failed',
          statusMessage: 'Tool execution failed: API rate limit exceeded',
          error: { code: -32603, message: 'API rate limit exceeded' },
        },
      ],
      [GetTaskResultSchema, { ...task, resultType: 'complete', status: 'cancelled', ttlMs: null }],
    ];
    for (const [schema, message] of messages) {
      const parsed = schema.safeParse(message);
      expect(parsed.error).toBeUndefined();
      expect(parsed.data).toEqual(message);
    }
  });

  it('requires the payload of each status, and knows only the five statuses', () => {
    for (const status of ['input_required', 'completed', 'failed']) {
      expect(DetailedTaskSchema.safeParse({ ...task, status }).success).toBe(false);
    }
    expect(DetailedTaskSchema.safeParse({ ...task, status: 'paused' }).success).toBe(false);
    expect(TaskSchema.safeParse({ ...task, status: 'paused' }).success).toBe(false);
    const badQuestion = { ...task, status: 'input_required', inputRequests: { q: { method: 'x/y' } } };
    expect(DetailedTaskSchema.safeParse(badQuestion).success).toBe(false);
    expect(DetailedTaskSchema.safeParse({ ...task, status: 'failed', error: { code: 'x' } }).success).toBe(
      false,
    );
    expect(GetTaskResultSchema.safeParse({ ...task, resultType: 'task' }).success).toBe(false);
  });

  it('refuses timestamps that are not ISO 8601, and durations that are not integers ≥ 0', () => {
    expect(TaskSchema.safeParse({ ...task, createdAt: 'yesterday' }).success).toBe(false);
    expect(TaskSchema.safeParse({ ...task, ttlMs: 1.5 }).success).toBe(false);
    expect(TaskSchema.safeParse({ ...task, pollIntervalMs: -1 }).success).toBe(false);
  });

  it('refuses a CreateTaskResult that carries a later state’s payload or a round’s state', () => {
    const created = { ...task, resultType: 'task' };
    for (const extra of [
      { result: {} },
      { error: { code: 1, message: 'x' } },
      { inputRequests: {} },
      { requestState: 's' },
    ]) {
      expect(CreateTaskResultSchema.safeParse({ ...created, ...extra }).success).toBe(false);
    }
    expect(CreateTaskResultSchema.safeParse({ ...created, resultType: 'complete' }).success).toBe(false);
  });

  it('tells the statuses apart', () => {
    expect(TASK_STATUSES.filter(isTerminal)).toEqual(['completed', 'failed', 'cancelled']);
    expect(TASK_STATUSES.every(isTaskStatus)).toBe(true);
    expect([undefined, 'paused', 1].some(isTaskStatus)).toBe(false);
  });
});

const schemaFile = fileURLToPath(new URL('ext-tasks/schema/draft/schema.json', specRoot));
if (!existsSync(schemaFile)) {
  console.warn('skipping the tasks extension spec checks: ../shared/spec/ext-tasks not found');
  describe.skip('tasks extension schema.json (../shared/spec/ext-tasks not found)', () => {
    it('needs ../shared/spec/ext-tasks', () => {});
  });
} else {
  const defs = (JSON.parse(readFileSync(schemaFile, 'utf8')) as { $defs: Record<string, JsonSchemaNode> })
    .$defs;
  // schema.json types the timestamps as plain strings; the spec's prose says ISO 8601, which the schemas check.
  // Its integers reach down to -2^53; a duration is ≥ 0.
  const dated = { createdAt: '2026-07-28T10:00:00Z', lastUpdatedAt: '2026-07-28T10:00:00Z', ttlMs: 60_000 };
  const types: [string, { safeParse(value: unknown): { success: boolean } }][] = [
    ['Task', TaskSchema],
    ['CreateTaskResult', CreateTaskResultSchema],
    ['WorkingTask', DetailedTaskSchema],
    ['InputRequiredTask', DetailedTaskSchema],
    ['CompletedTask', DetailedTaskSchema],
    ['FailedTask', DetailedTaskSchema],
    ['CancelledTask', DetailedTaskSchema],
  ];
  describe('tasks extension schema.json', () => {
    for (const [type, schema] of types) {
      const def = defs[type] as JsonSchemaNode;
      const base: Record<string, unknown> = { ...(synthesize(def, defs) as object), ...dated };
      if (type === 'CreateTaskResult') base.resultType = 'task';
      it(`${type}: its minimal value parses`, () => {
        expect(schema.safeParse(base).success).toBe(true);
      });
      const mutations = requiredFieldMutations(def, base, defs).filter(
        // `resultType` is any string in the base `Result`; CreateTaskResult pins it to "task".
        (m) => !(type === 'CreateTaskResult' && m.name === 'resultType: removed'),
      );
      it.each(mutations.map((m) => ({ name: m.name, m })))(`${type} rejects $name`, ({ m }) => {
        expect(schema.safeParse(applyMutation(base, m)).success).toBe(false);
      });
    }
  });
}
