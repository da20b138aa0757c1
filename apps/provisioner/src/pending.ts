import { readFile, rm, writeFile } from 'node:fs/promises';
import { type InputRequests, InputRequestsSchema, type InputRequiredResult } from '@boomerang/protocol';
import { CliError } from './errors.js';

/** The default pending file, in the working directory (git-ignored). */
export const DEFAULT_PENDING_FILE = '.provisioner-pending.json';

/** Marks the file format, so a stray JSON file is not mistaken for a pending call. */
export const PENDING_FORMAT = 'boomerang-provisioner/pending-call@1';

/**
 * A call waiting for answers, as stored between processes: the original request (tool and arguments, which
 * the retry must repeat exactly) and the `InputRequiredResult` (the questions and the opaque, sealed state,
 * echoed byte for byte). Plain JSON.
 */
export interface PendingCall {
  format: typeof PENDING_FORMAT;
  savedAt: string;
  tool: string;
  arguments: Record<string, unknown>;
  inputRequests: InputRequests;
  requestState?: string;
}

/** The pending call for `result`, an answer to `tool(args)`. */
export function toPending(
  tool: string,
  args: Record<string, unknown>,
  result: InputRequiredResult,
  now = new Date(),
): PendingCall {
  return {
    format: PENDING_FORMAT,
    savedAt: now.toISOString(),
    tool,
    arguments: args,
    inputRequests: result.inputRequests ?? {},
    ...(result.requestState === undefined ? {} : { requestState: result.requestState }),
  };
}

/** Writes `pending` to `path` (readable by its owner only: the state is sealed, but it is still a credential). */
export async function writePending(path: string, pending: PendingCall): Promise<void> {
  await writeFile(path, `${JSON.stringify(pending, null, 2)}\n`, { mode: 0o600 });
}

/** Removes the pending file once its call is finished. */
export async function removePending(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** Reads and checks the pending call at `path`; throws {@link CliError} saying what is wrong with it. */
export async function readPending(path: string, command: string): Promise<PendingCall> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new CliError(`No pending call in ${path}. Start one with \`${command} start <name>\`.`);
    }
    throw new CliError(`Cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliError(
      `${path} is not valid JSON (was it edited by hand?). Start again with \`${command} start\`.`,
    );
  }
  const problem = pendingProblem(value);
  if (problem !== undefined) {
    throw new CliError(
      `${path} is not a pending provisioner call: ${problem}. Start again with \`${command} start\`.`,
    );
  }
  return value as PendingCall;
}

/** What is wrong with a parsed pending file, or `undefined` when it has the right shape. */
function pendingProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const v = value as Record<string, unknown>;
  if (v.format !== PENDING_FORMAT) return `"format" is not "${PENDING_FORMAT}"`;
  if (typeof v.tool !== 'string') return '"tool" is missing';
  if (typeof v.arguments !== 'object' || v.arguments === null || Array.isArray(v.arguments)) {
    return '"arguments" is not an object';
  }
  if (v.requestState !== undefined && typeof v.requestState !== 'string')
    return '"requestState" is not a string';
  if (!InputRequestsSchema.safeParse(v.inputRequests).success) return '"inputRequests" is not valid';
  return undefined;
}
