import { type Client, isClientError } from '@boomerang/client';
import type { CallToolResult, InputResponses } from '@boomerang/protocol';
import { CliError } from './errors.js';
import { formSchemaOf } from './format.js';
import type { PendingCall } from './pending.js';
import { provisionTool } from './server.js';

/**
 * Round one of the manual loop: starts `provision({ name })` a step at a time, and returns either the complete
 * result or the continuation to store (the questions and the sealed state).
 */
export async function startCall(client: Client, name: string): Promise<CallToolResult | PendingCall> {
  const step = await client.start('tools/call', { name: provisionTool.name, arguments: { name } });
  return step.continuation ?? step.result;
}

/**
 * The next round: resumes the stored continuation with `responses` under the keys of its `inputRequests` (the
 * client repeats the call and echoes its `requestState` byte for byte). Returns the complete result, or the next
 * continuation when the server asks again.
 */
export async function answerCall(
  client: Client,
  pending: PendingCall,
  responses: InputResponses,
): Promise<CallToolResult | PendingCall> {
  const step = await client.resume(pending, responses);
  return step.continuation ?? step.result;
}

/**
 * The answers to a pending call from one value typed on the command line: every question must be a form with
 * exactly one field (the provisioner's region form), which gets `value`. `decline` answers every question with
 * `{ action: 'decline' }` instead. Throws {@link CliError} for a question this CLI cannot answer.
 */
export function answersFor(pending: PendingCall, value: string | { decline: true }): InputResponses {
  const responses: InputResponses = {};
  for (const [key, request] of Object.entries(pending.inputRequests)) {
    const schema = request.method === 'elicitation/create' ? formSchemaOf(request.params) : undefined;
    const fields = schema === undefined ? [] : Object.keys(schema.properties);
    if (fields.length !== 1) {
      throw new CliError(`The server asks something this CLI cannot answer (${key}: ${request.method}).`);
    }
    responses[key] =
      typeof value === 'string'
        ? { action: 'accept', content: { [fields[0] as string]: value } }
        : { action: 'decline' };
  }
  return responses;
}

/**
 * Whether `error` is the server's rejection of a `requestState` (tampered, expired, other arguments, other key):
 * the client's `state-rejected` error, the server's `-32602 Invalid or expired requestState` as its cause.
 */
export function isRejectedState(error: unknown): boolean {
  return isClientError(error, 'state-rejected');
}

/**
 * The reason the server logged for the last rejected state (`forged`, `expired`, `unknown-key`, `context`, …),
 * when it logged one. Both processes host the server, so its log is ours to read.
 */
export function rejectionReason(serverWarnings: readonly string[]): string | undefined {
  for (let i = serverWarnings.length - 1; i >= 0; i--) {
    const match = /^requestState rejected on [^:]+: (.+)$/.exec(serverWarnings[i] as string);
    if (match) return match[1];
  }
  return undefined;
}

/** What each logged reason means for the person at the terminal. */
const REASONS: Readonly<Record<string, string>> = {
  expired: 'it expired (a round lives PROVISIONER_STATE_TTL seconds, 600 by default)',
  'not-yet-valid': 'it was sealed in the future (check the clocks)',
  'unknown-key': 'it was sealed under a different PROVISIONER_STATE_KEY',
  forged: 'it was modified after `start` wrote it',
  malformed: 'it was modified after `start` wrote it (it is no longer a token)',
  context: 'the tool or its arguments in the pending file were changed',
  audience: 'it was sealed for another service',
};

/** A {@link CliError} explaining a rejected state, with the server's logged reason when there is one. */
export function rejectedStateError(
  serverWarnings: readonly string[],
  command: string,
  cause: unknown,
): CliError {
  const reason = rejectionReason(serverWarnings);
  const why =
    reason === undefined
      ? 'it was modified, it expired, or it was sealed under a different PROVISIONER_STATE_KEY'
      : `${REASONS[reason] ?? reason} [server log: ${reason}]`;
  return new CliError(
    `The server rejected the pending call's state: ${why}.\n` +
      `Nothing was provisioned. Start over with \`${command} start <name>\`.`,
    { cause },
  );
}
