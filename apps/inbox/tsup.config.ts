import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// Plain Node programs (no library surface, so no `.d.ts`): the inbox (`node dist/main.js`), a resumer on its own
// (`node dist/resumer.js`), the worker on its own (`node dist/worker.js`) and the benchmark (`node dist/bench.js`).
export default defineConfig(
  packageBuild(
    {
      main: 'src/main.ts',
      resumer: 'src/resumer-main.ts',
      worker: 'src/worker-main.ts',
      bench: 'src/bench.ts',
    },
    { platform: 'node', dts: false },
  ),
);
