import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// One build, three entries: the portable runtime entry (no `node:` imports), the `node` condition's entry and
// the `boomerang-seal` bin. Shared modules land in common chunks, so `SealError` is one class for both entries.
export default defineConfig(
  packageBuild(
    { index: 'src/index.ts', 'index.node': 'src/index.node.ts', cli: 'src/cli.ts' },
    {
      external: [/^node:/],
      removeNodeProtocol: false,
    },
  ),
);
