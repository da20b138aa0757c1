import { mkdirSync, writeFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';
import { readTemplateDir } from './src/template-files.ts';

// The API and the `create-boomerang` bin; then the templates/ folder as dist/templates.json, the one copy the
// published package carries (see src/template-files.ts).
export default defineConfig(
  packageBuild(
    { index: 'src/index.ts', cli: 'src/cli.ts' },
    {
      platform: 'node',
      onSuccess: async () => {
        mkdirSync('dist', { recursive: true });
        writeFileSync('dist/templates.json', `${JSON.stringify(readTemplateDir('templates'))}\n`);
      },
    },
  ),
);
