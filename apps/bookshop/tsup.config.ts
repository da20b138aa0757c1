import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// Three plain Node programs (no library surface, so no `.d.ts`): `node dist/demo.js`, `node dist/server.js` and
// `node dist/headless.js`.
export default defineConfig(
  packageBuild(
    { demo: 'src/demo.ts', server: 'src/server.ts', headless: 'src/headless.ts' },
    { platform: 'node', dts: false },
  ),
);
