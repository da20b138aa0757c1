import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// The API and the `boomerang-codemod` bin; ts-morph and diff stay dependencies (never bundled).
export default defineConfig(packageBuild({ index: 'src/index.ts', cli: 'src/cli.ts' }, { platform: 'node' }));
