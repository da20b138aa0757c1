import { readFile } from 'node:fs/promises';
import { argumentError } from '@boomerang/protocol';

/** Where {@link workloadToken} finds the platform's token: exactly one of the three. */
export type WorkloadTokenOptions =
  | {
      /** A file the platform writes and rotates (e.g. a Kubernetes projected service-account token). */
      readonly file: string | URL;
      readonly env?: undefined;
      readonly fileEnv?: undefined;
    }
  | {
      /** An environment variable holding the token itself. */
      readonly env: string;
      readonly file?: undefined;
      readonly fileEnv?: undefined;
    }
  | {
      /** An environment variable holding the path of the token file (e.g. `AZURE_FEDERATED_TOKEN_FILE`). */
      readonly fileEnv: string;
      readonly file?: undefined;
      readonly env?: undefined;
    };

/**
 * A token source for `workloadIdentity({ assertion })`: reads the workload's identity token from a file or an
 * environment variable each time it is called (platforms rotate these tokens, often hourly), trimmed. Errors name
 * the file or the variable, never the token. `environment` stands in for `process.env` in tests.
 */
export function workloadToken(
  options: WorkloadTokenOptions,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): () => Promise<string> {
  const given = [options?.file, options?.env, options?.fileEnv].filter((v) => v !== undefined);
  if (given.length !== 1) {
    throw new TypeError('workloadToken expected exactly one of "file", "env" or "fileEnv"');
  }
  const { file, env, fileEnv } = options;
  if (env !== undefined || fileEnv !== undefined) {
    const name = env ?? fileEnv;
    if (typeof name !== 'string' || name === '') {
      throw argumentError(env !== undefined ? 'env' : 'fileEnv', 'a variable name', name);
    }
  } else if (typeof file !== 'string' && !(file instanceof URL)) {
    throw argumentError('file', 'a path or a file: URL', file);
  }
  return async () => {
    let token: string;
    if (env !== undefined) {
      token = environment[env] ?? '';
      if (token.trim() === '') throw new Error(`the environment variable ${env} holds no token`);
    } else {
      const path = fileEnv !== undefined ? environment[fileEnv] : file;
      if (path === undefined || path === '')
        throw new Error(`the environment variable ${fileEnv} names no file`);
      token = await readFile(path, 'utf8');
      if (token.trim() === '') throw new Error(`the token file ${String(path)} is empty`);
    }
    return token.trim();
  };
}
