import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '@boomerang/test-kit/built';
import { beforeAll, describe, expect, it } from 'vitest';
import { appDir } from '../paths.js';
import { compileExamples } from './compile.js';
import { addAndClear, addNoteOverStdio, serveHttp } from './first-server.examples.js';

describe('first server', () => {
  it('serves over HTTP; clearing asks first and the answer arrives on the retry', async () => {
    const endpoint = await serveHttp(0);
    try {
      expect(endpoint.url.hostname).toBe('127.0.0.1');
      expect(await addAndClear(endpoint.url)).toEqual(['Saved note #1', 'Deleted 1 notes']);
    } finally {
      await endpoint.close();
    }
  });

  describe('over stdio, as a child process', () => {
    let unavailable: string | undefined;
    beforeAll(() => {
      unavailable = ensureBuilt({ appDir });
    }, 300_000);

    it('the stdio program answers a host that spawned it', async (ctx) => {
      if (unavailable !== undefined) return ctx.skip(unavailable);
      const program = compileExamples(
        fileURLToPath(new URL('./first-server-stdio.examples.ts', import.meta.url)),
        fileURLToPath(new URL('./first-server.examples.ts', import.meta.url)),
      );
      expect(await addNoteOverStdio(program)).toBe('Saved note #1');
    });
  });
});
