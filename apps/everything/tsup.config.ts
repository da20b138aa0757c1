import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// Two plain Node programs (no library surface, so no `.d.ts`): `node dist/server.js --port N` and
// `node dist/client.js <url>`.
export default defineConfig(
  packageBuild(
    { server: 'src/server.ts', client: 'src/client.ts', conformance: 'src/conformance.ts' },
    { platform: 'node', dts: false },
  ),
);
