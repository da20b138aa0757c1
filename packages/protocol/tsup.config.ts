import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// `#zod` (package.json "imports") is resolved at run time, per condition: the entries below are its two targets,
// and every other module imports it, never bundles it.
export default defineConfig(
  packageBuild(
    {
      index: 'src/index.ts',
      schemas: 'src/schemas.ts',
      transport: 'src/transport-kit.ts',
      legacy: 'src/legacy/index.ts',
      tasks: 'src/tasks/index.ts',
      skills: 'src/skills/index.ts',
      'json-schema': 'src/json-schema.ts',
      internal: 'src/checks/index.ts',
      'zod-load': 'src/zod-load.ts',
      'zod-load.node': 'src/zod-load.node.ts',
    },
    { external: ['#zod', /^node:/], removeNodeProtocol: false },
  ),
);
