import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// Two plain Node programs (no library surface, so no `.d.ts`): `node dist/demo.js` and `node dist/server.js`.
export default defineConfig(
  packageBuild({ demo: 'src/demo.ts', server: 'src/server.ts' }, { platform: 'node', dts: false }),
);
