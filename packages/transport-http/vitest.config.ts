import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

// `--expose-gc`: handler.test.ts collects garbage on purpose, to prove a web `Request` outlives its handler.
export default mergeConfig(
  sharedConfig,
  defineProject({ test: { name: 'transport-http', execArgv: ['--expose-gc'] } }),
);
