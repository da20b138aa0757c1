import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// Declarations come from `tsc -p tsconfig.build.json` (dist/types): bundling the d.ts of 155 zod schemas with
// tsup's dts step took minutes; plain tsc emits them in seconds.
export default defineConfig(
  packageBuild({ index: 'src/index.ts', legacy: 'src/legacy/index.ts' }, { dts: false }),
);
