import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// One plain Node program, the site's build (no library surface, so no `.d.ts`): `node dist/cli.js build`.
export default defineConfig(packageBuild({ cli: 'src/cli.ts' }, { platform: 'node', dts: false }));
