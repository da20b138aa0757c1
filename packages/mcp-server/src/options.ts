import { argumentError } from '@boomerang/protocol';
import type { McpServerOptions } from './types.js';

const OPTION_NAMES: ReadonlySet<string> = new Set([
  'instructions',
  'capabilities',
  'requestStateSecurity',
  'logger',
  'cache',
  'pageSize',
  'maxStateBytes',
  'answerBinding',
  'notifications',
  'legacy',
  'extensions',
  'tasks',
]);

/**
 * Checks what `McpServer`'s constructor checks itself (the low-level server checks the rest): throws
 * `TypeError` for a bad `info`, non-object options or an unknown option, `RangeError` for a bad `pageSize` or
 * `maxStateBytes`.
 */
export function checkOptions(info: unknown, options: McpServerOptions): void {
  if (typeof info !== 'object' || info === null || !('name' in info) || typeof info.name !== 'string') {
    throw argumentError('info', '{ name, version }', info);
  }
  if (typeof options !== 'object' || options === null) throw argumentError('options', 'an object', options);
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) throw new TypeError(`unknown option "${name}"`);
  }
  const { pageSize, maxStateBytes, capabilities, answerBinding } = options;
  if (answerBinding !== undefined && answerBinding !== 'question' && answerBinding !== 'round') {
    throw argumentError('answerBinding', "'question' or 'round'", answerBinding);
  }
  if (
    capabilities !== undefined &&
    (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities))
  ) {
    throw argumentError('capabilities', 'a plain object', capabilities);
  }
  if (pageSize !== undefined && (!Number.isSafeInteger(pageSize) || pageSize < 1)) {
    throw new RangeError(`"pageSize" expected a positive integer, got ${String(pageSize)}`);
  }
  if (maxStateBytes !== undefined && (!Number.isSafeInteger(maxStateBytes) || maxStateBytes < 1)) {
    throw new RangeError(`"maxStateBytes" expected a positive integer, got ${String(maxStateBytes)}`);
  }
}

/**
 * The options passed to the low-level server as given (it checks them), without the undefined ones. On a
 * 2025-11-25 session every `InputRequiredResult` is fulfilled through server→client requests (the shim), since
 * resolvers ask only through rounds.
 */
export function passThroughOptions({ instructions, cache, legacy, extensions, tasks }: McpServerOptions) {
  if (
    legacy !== undefined &&
    typeof legacy !== 'boolean' &&
    (typeof legacy !== 'object' || legacy === null)
  ) {
    throw argumentError('legacy', 'a boolean or { requestTimeoutMs? }', legacy);
  }
  const era = legacy === false ? false : { shim: true, ...(legacy === true ? {} : legacy) };
  if (
    tasks !== undefined &&
    (typeof tasks !== 'object' || tasks === null || typeof tasks.wrapCallTool !== 'function')
  ) {
    throw argumentError('tasks', 'a tasks runtime (createTasks({ store }) of @boomerang/tasks)', tasks);
  }
  const served = tasks === undefined ? extensions : [...(extensions ?? []), tasks.extension];
  return Object.fromEntries(
    Object.entries({ instructions, cache, extensions: served, legacy: era }).filter(
      ([, v]) => v !== undefined,
    ),
  );
}
