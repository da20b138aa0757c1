import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.shared.ts';

export default defineConfig(
  packageBuild({
    index: 'src/index.ts',
    built: 'src/built.ts',
    postgres: 'src/postgres-server.ts',
    redis: 'src/redis-server.ts',
    nginx: 'src/nginx-server.ts',
    'notification-source': 'src/notification-source-suite.ts',
  }),
);
