import { readFile, rm, writeFile } from 'node:fs/promises';
import type { Continuation } from '@boomerang/client';
import { isPlainObject } from '@boomerang/protocol';
import { CliError } from './errors.js';

/** The default pending file, in the working directory (git-ignored). */
export const DEFAULT_PENDING_FILE = '.provisioner-pending.json';

/**
 * A call waiting for answers, as stored between processes: the client's continuation of the `provision` call,
 * plain JSON (the tool and its arguments, which the retry repeats exactly, the questions, the opaque sealed state
 * echoed byte for byte, the round, when it was made). `client.resume()` checks it in full.
 */
export type PendingCall = Continuation<'tools/call'>;

/** Writes `pending` to `path` (readable by its owner only: the state is sealed, but it is still a credential). */
export async function writePending(path: string, pending: PendingCall): Promise<void> {
  await writeFile(path, `${JSON.stringify(pending, null, 2)}\n`, { mode: 0o600 });
}

/** Removes the pending file once its call is finished. */
export async function removePending(path: string): Promise<void> {
  await rm(path, { force: true });
}

/**
 * Reads the pending call at `path`: a continuation of this CLI's `provision` call. Throws {@link CliError} saying
 * what is wrong with the file (what is wrong with the continuation itself, `client.resume()` says).
 */
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
  if (problem !== undefined) throw notPending(path, command, problem);
  return value as PendingCall;
}

/** The error for a file that holds no pending call of this CLI, saying why. */
export function notPending(path: string, command: string, problem: string): CliError {
  return new CliError(
    `${path} is not a pending provisioner call: ${problem}. Start again with \`${command} start\`.`,
  );
}

/** Why a parsed pending file is not a continuation of this CLI's call, or `undefined` when it looks like one. */
function pendingProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'not a JSON object';
  if (value.method !== 'tools/call') return '"method" is not "tools/call"';
  if (!isPlainObject(value.params) || typeof value.params.name !== 'string')
    return '"params.name" is missing';
  if (!isPlainObject(value.inputRequests)) return '"inputRequests" is missing';
  return undefined;
}
