import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

// Three plain Node programs, `node dist/demo.js`, `node dist/server.js` and `node dist/headless.js`, and the
// bookshop itself (`createBookshopServer`, `listenBookshop`) for apps that serve it in process (apps/inbox); no
// `.d.ts`: the apps that import it typecheck against its sources.
export default defineConfig(
  packageBuild(
    {
      demo: 'src/demo.ts',
      server: 'src/server.ts',
      headless: 'src/headless.ts',
      bookshop: 'src/bookshop.ts',
    },
    { platform: 'node', dts: false },
  ),
);
