// What the inbox's programs share on their command lines: `--server name=url`, roots, keys, jobs files.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Root } from '@boomerang/protocol';
import { parseKeys } from '@boomerang/seal';
import { type Job, parseJobs } from './worker.js';

/** A command line that is not one of the usage's: the message says what is wrong. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** `name=url` pairs → `{ name: url }`; throws {@link UsageError} for a pair that is not one. */
export function parseServers(pairs: readonly string[]): Record<string, string> {
  const servers: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const url = pair.slice(eq + 1);
    if (eq < 1 || !/^[A-Za-z0-9._-]+$/.test(name) || !/^https?:\/\/\S+$/.test(url)) {
      throw new UsageError(`--server expected name=http(s)://host:port/mcp, got ${JSON.stringify(pair)}`);
    }
    if (Object.hasOwn(servers, name)) throw new UsageError(`--server ${name} given twice`);
    servers[name] = url;
  }
  return servers;
}

/** The roots to offer: each `--root` (a URI, or a path made a `file://` URI), else the working directory. */
export function parseRoots(values: readonly string[], cwd = process.cwd()): Root[] {
  const given = values.length > 0 ? values : [cwd];
  return given.map((value) => {
    const uri = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : pathToFileURL(value).href;
    const name = uri.replace(/\/+$/, '').split('/').pop() || uri;
    return { uri, name };
  });
}

/** A positive integer option; throws {@link UsageError} otherwise. */
export function positiveInt(
  value: string | undefined,
  option: string,
  fallback: number,
  allowZero = false,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < (allowZero ? 0 : 1)) {
    throw new UsageError(
      `${option} expected a ${allowZero ? 'non-negative' : 'positive'} integer, got ${value}`,
    );
  }
  return n;
}

/** The keys in `INBOX_SECRET`, if set (throws {@link UsageError} for keys that do not parse). */
export function secretKeys(env: NodeJS.ProcessEnv = process.env): Uint8Array[] | undefined {
  const value = env.INBOX_SECRET;
  if (value === undefined || value === '') return undefined;
  try {
    return parseKeys(value);
  } catch (error) {
    throw new UsageError(`INBOX_SECRET: ${(error as Error).message}`);
  }
}

/** The jobs of a JSON file; throws {@link UsageError} naming the file and what is wrong. */
export function readJobs(file: string): Job[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--jobs ${file}: ${(error as Error).message}`);
  }
  try {
    return parseJobs(JSON.parse(text));
  } catch (error) {
    throw new UsageError(`--jobs ${file}: ${(error as Error).message}`);
  }
}
