// What a `tasks/update` answer must look like before it is recorded: the result of the kind of request it
// answers. Content against the question's own schema is the handler's business (its resolvers check it).
import { describeIssues } from '@boomerang/protocol';
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
  safeParse,
} from '@boomerang/protocol/schemas';

/**
 * Why `answer` cannot answer `request` (an entry of a task's `inputRequests`), as text for a `-32602`, or
 * `undefined` when it can: an elicitation needs an `ElicitResult`, sampling a `CreateMessageResult`, `roots/list`
 * a `ListRootsResult`.
 */
export function answerIssues(request: unknown, answer: unknown): string | undefined {
  const method = (request as { method?: unknown } | null)?.method;
  const schema =
    method === 'elicitation/create'
      ? ElicitResultSchema
      : method === 'sampling/createMessage'
        ? CreateMessageResultSchema
        : method === 'roots/list'
          ? ListRootsResultSchema
          : undefined;
  if (schema === undefined) return undefined;
  const checked = safeParse(schema, answer);
  return checked.success
    ? undefined
    : `is not an answer to ${String(method)}: ${describeIssues(checked.error.issues, 'answer')}`;
}
