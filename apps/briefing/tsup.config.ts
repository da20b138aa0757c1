import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// One plain Node program (no library surface, so no `.d.ts`): `node dist/demo.js`.
export default defineConfig(packageBuild({ demo: 'src/demo.ts' }, { platform: 'node', dts: false }));
