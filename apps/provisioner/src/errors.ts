/**
 * A failure the CLI explains to its user in one message, without a stack trace: a missing or bad key, a missing
 * or damaged pending file, state the server rejected. `exitCode` is 1 for failures and 2 for usage errors.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: number;

  constructor(message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options.exitCode ?? 1;
  }
}
