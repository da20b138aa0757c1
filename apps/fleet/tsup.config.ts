import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// Three plain Node programs (no library surface, so no `.d.ts`): the fleet script, an instance, the load generator.
export default defineConfig(
  packageBuild(
    { fleet: 'src/fleet.ts', instance: 'src/instance.ts', load: 'src/load.ts' },
    { platform: 'node', dts: false },
  ),
);
