import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// Two plain Node programs (no library surface, so no `.d.ts`): `node dist/fuzz.js` and `node dist/soak.js`.
export default defineConfig(
  packageBuild({ fuzz: 'src/fuzz.ts', soak: 'src/soak.ts' }, { platform: 'node', dts: false }),
);
