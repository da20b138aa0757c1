import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// Two entries: the runtime-neutral server, and `./node` (skills from a folder), whose `node:` imports stay as written;
// and the two targets of `#zod-json-schema` (package.json "imports"), resolved at run time per condition, never
// bundled.
export default defineConfig(
  packageBuild(
    {
      index: 'src/index.ts',
      node: 'src/skills-node.ts',
      'zod-json-schema': 'src/zod-json-schema.ts',
      'zod-json-schema.node': 'src/zod-json-schema.node.ts',
    },
    { external: ['#zod-json-schema', /^node:/], removeNodeProtocol: false },
  ),
);
