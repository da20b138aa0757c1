import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// The quick start's two programs, as plain Node programs: `node dist/client.js` starts `node server.js` (in dist/).
export default defineConfig(
  packageBuild({ server: 'src/server.ts', client: 'src/client.ts' }, { platform: 'node', splitting: false }),
);
