import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// Two plain Node programs (no library surface, so no `.d.ts`): `node dist/demo.js` and `node dist/cli.js`.
export default defineConfig(
  packageBuild({ demo: 'src/demo.ts', cli: 'src/cli.ts' }, { platform: 'node', dts: false }),
);
