import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// Two entries: the web-standard core (no `node:` imports) and the node:http adapter, whose `node:` specifiers
// stay as written.
export default defineConfig(
  packageBuild(
    { index: 'src/index.ts', node: 'src/node.ts' },
    { platform: 'node', removeNodeProtocol: false },
  ),
);
