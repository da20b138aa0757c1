import { resolve } from 'node:path';
import { isClientError } from '@boomerang/client';
import { type CallToolResult, McpError } from '@boomerang/protocol';
import { generateKey } from '@boomerang/seal';
import { CliError } from './errors.js';
import { abbreviate, choicesOf, describeInputRequests, firstText, formSchemaOf } from './format.js';
import { hostProvisioner, type ProvisionerHost } from './host.js';
import { encodeKey, STATE_KEY_ENV, stateKeysFromEnv, stateTtlFromEnv } from './keys.js';
import { answerCall, answersFor, isRejectedState, rejectedStateError, startCall } from './manual.js';
import {
  DEFAULT_PENDING_FILE,
  notPending,
  type PendingCall,
  readPending,
  removePending,
  writePending,
} from './pending.js';

/** Where the CLI reads and writes: its streams, environment and working directory. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** How the user invokes this CLI, for the hints it prints (e.g. `node apps/provisioner/dist/cli.js`). */
  command: string;
}

const USAGE = (command: string) => `Usage: ${command} <command>
  keygen            print a new key for ${STATE_KEY_ENV}
  start <name>      call provision({ name }) and store the pending call
  answer <region>   finish the stored call with that region
  decline           finish the stored call by declining to choose
Options:
  --state-file <path>     the pending call (default ./${DEFAULT_PENDING_FILE})
Environment:
  ${STATE_KEY_ENV}   the sealing key both processes share (start, answer, decline)
  PROVISIONER_STATE_TTL   lifetime of the sealed state in seconds (default 600)`;

/**
 * The two-process manual loop. `start` and `answer` each host the provisioner server in process and talk to it
 * over the in-memory pair; the pending call crosses from one process to the other in a file, and its sealed
 * `requestState` is what lets the second process trust it. Resolves to the exit code: 0 done, 1 failed (or the
 * call still needs an answer), 2 usage error.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { command, positional, stateFile } = parseArgs(argv);
    const path = resolve(io.cwd, stateFile ?? DEFAULT_PENDING_FILE);
    switch (command) {
      case 'keygen':
        io.out(encodeKey(generateKey()));
        return 0;
      case 'start':
        return await start(positional, path, io);
      case 'answer':
        return await answer(positional, path, io);
      case 'decline':
        return await answer(undefined, path, io);
      case 'help':
        io.out(USAGE(io.command));
        return 0;
      default:
        throw new CliError(`Unknown command ${JSON.stringify(command)}.\n${USAGE(io.command)}`, {
          exitCode: 2,
        });
    }
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`error: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof McpError) {
      io.err(`error: the server answered ${error.code}: ${error.message}`);
      return 1;
    }
    io.err(`error: ${(error as Error)?.stack ?? String(error)}`);
    return 1;
  }
}

function parseArgs(argv: readonly string[]): {
  command: string;
  positional: string | undefined;
  stateFile?: string;
} {
  const rest: string[] = [];
  let stateFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { command: 'help', positional: undefined };
    if (arg === '--state-file') {
      stateFile = argv[++i];
      if (stateFile === undefined) throw new CliError('--state-file needs a path', { exitCode: 2 });
    } else if (arg.startsWith('--state-file=')) {
      stateFile = arg.slice('--state-file='.length);
    } else if (arg.startsWith('-')) {
      throw new CliError(`Unknown option ${arg}`, { exitCode: 2 });
    } else {
      rest.push(arg);
    }
  }
  const [command = 'help', positional, extra] = rest;
  if (extra !== undefined)
    throw new CliError(`Unexpected argument ${JSON.stringify(extra)}`, { exitCode: 2 });
  return { command, positional, ...(stateFile === undefined ? {} : { stateFile }) };
}

/** Hosts the server with the shared key and a client that declares form elicitation (answers come from us). */
function host(io: CliIo): Promise<ProvisionerHost> {
  const keys = stateKeysFromEnv(io.env, io.command);
  const ttlSeconds = stateTtlFromEnv(io.env);
  return hostProvisioner({
    keys,
    ...(ttlSeconds === undefined ? {} : { ttlSeconds }),
    client: {
      // Declares the capability the tool needs without a callback: the flow goes a step at a time
      // (`client.start` / `client.resume`) and the answers come from the command line.
      capabilities: { elicitation: { form: {} } },
    },
  });
}

async function start(name: string | undefined, path: string, io: CliIo): Promise<number> {
  if (name === undefined)
    throw new CliError(`Which database? \`${io.command} start <name>\``, { exitCode: 2 });
  await using provisioner = await host(io);
  const outcome = await startCall(provisioner.client, name);
  if (!isPending(outcome)) return finish(outcome, path, io);
  await writePending(path, outcome);
  io.out(`provision ${JSON.stringify(outcome.params.arguments)} needs an answer before it can finish:`);
  printQuestions(outcome, io);
  io.out(`Saved the pending call to ${path}`);
  if (outcome.requestState !== undefined) {
    io.out(
      `  requestState: ${abbreviate(outcome.requestState)}, sealed: the client can neither read nor alter it`,
    );
  }
  io.out(`Finish it from any process with the same ${STATE_KEY_ENV}:`);
  io.out(`  ${io.command} answer <region>`);
  return 0;
}

async function answer(value: string | undefined, path: string, io: CliIo): Promise<number> {
  const pending = await readPending(path, io.command);
  const responses = answersFor(pending, value === undefined ? { decline: true } : value);
  await using provisioner = await host(io);
  let outcome: CallToolResult | PendingCall;
  try {
    outcome = await answerCall(provisioner.client, pending, responses);
  } catch (error) {
    if (isRejectedState(error)) throw rejectedStateError(provisioner.serverWarnings, io.command, error);
    if (isClientError(error, 'invalid-continuation')) {
      throw notPending(path, io.command, error.message);
    }
    throw error;
  }
  if (!isPending(outcome)) return finish(outcome, path, io);
  await writePending(path, outcome);
  io.err('The server asks again:');
  printQuestions(outcome, io, io.err);
  io.err(`Updated ${path}; answer with \`${io.command} answer <region>\`.`);
  return 1;
}

async function finish(result: CallToolResult, path: string, io: CliIo): Promise<number> {
  await removePending(path);
  if (result.isError === true) {
    io.err(`provision failed: ${firstText(result)}`);
    return 1;
  }
  io.out(firstText(result));
  if (result.structuredContent !== undefined) io.out(JSON.stringify(result.structuredContent, null, 2));
  return 0;
}

function printQuestions(pending: PendingCall, io: CliIo, write: (line: string) => void = io.out): void {
  for (const line of describeInputRequests(pending.inputRequests)) write(`  ${line}`);
  for (const request of Object.values(pending.inputRequests)) {
    if (request.method !== 'elicitation/create') continue;
    for (const choice of choicesOf(formSchemaOf(request.params))) {
      write(`      ${choice.value.padEnd(16)} ${choice.title}`);
    }
  }
}

function isPending(outcome: CallToolResult | PendingCall): outcome is PendingCall {
  return (outcome as Partial<PendingCall>).version !== undefined;
}
