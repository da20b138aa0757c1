import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// Three entries: the web-standard core (no `node:` imports), the JWT verifier (the only one importing `jose`),
// and the loopback/browser helper for CLI apps, whose `node:` specifiers stay as written.
export default defineConfig(
  packageBuild(
    { index: 'src/index.ts', jwt: 'src/jwt.ts', node: 'src/node.ts' },
    { platform: 'node', removeNodeProtocol: false },
  ),
);
