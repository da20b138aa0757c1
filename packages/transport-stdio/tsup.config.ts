import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// Node-only package (node:child_process, process streams): keep the `node:` specifiers as written.
export default defineConfig(
  packageBuild({ index: 'src/index.ts' }, { platform: 'node', removeNodeProtocol: false }),
);
