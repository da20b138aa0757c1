import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WorkloadTokenOptions, workloadToken } from './workload-token.js';

describe('workloadToken', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'boomerang-workload-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a file (path or file: URL) afresh on each call, trimmed', async () => {
    const file = join(dir, 'token');
    await writeFile(file, '  first.jwt.sig\n');
    const read = workloadToken({ file });
    expect(await read()).toBe('first.jwt.sig');
    await writeFile(file, 'second.jwt.sig');
    expect(await read()).toBe('second.jwt.sig');
    expect(await workloadToken({ file: pathToFileURL(file) })()).toBe('second.jwt.sig');
  });

  it('reads a variable holding the token, or one naming the file', async () => {
    const file = join(dir, 'federated');
    await writeFile(file, 'from.file.sig');
    const environment = { TOKEN: 'from.env.sig\n', TOKEN_FILE: file };
    expect(await workloadToken({ env: 'TOKEN' }, environment)()).toBe('from.env.sig');
    expect(await workloadToken({ fileEnv: 'TOKEN_FILE' }, environment)()).toBe('from.file.sig');
  });

  it('fails naming the file or variable, never a token', async () => {
    const empty = join(dir, 'empty');
    await writeFile(empty, '\n');
    await expect(workloadToken({ file: empty })()).rejects.toThrow(`the token file ${empty} is empty`);
    await expect(workloadToken({ file: join(dir, 'missing') })()).rejects.toThrow(/ENOENT/);
    await expect(workloadToken({ env: 'NOPE' }, {})()).rejects.toThrow(
      'the environment variable NOPE holds no token',
    );
    await expect(workloadToken({ fileEnv: 'NOPE' }, {})()).rejects.toThrow(
      'the environment variable NOPE names no file',
    );
  });

  it('wants exactly one source', () => {
    for (const options of [{}, { file: 'a', env: 'B' }, { env: '' }, { file: 42 }, undefined]) {
      expect(() => workloadToken(options as unknown as WorkloadTokenOptions)).toThrow(TypeError);
    }
  });
});
