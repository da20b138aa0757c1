import { describe, expect, it } from 'vitest';
import * as built from './built.js';
import * as api from './index.js';
import * as nginx from './nginx-server.js';
import * as notificationSource from './notification-source-suite.js';
import * as postgres from './postgres-server.js';
import * as redis from './redis-server.js';

describe('@boomerang/test-kit', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'errorOf',
      'requestTransportSuite',
      'resultOf',
      'serveOverStream',
      'streamTransportSuite',
      'suiteServer',
      'within',
    ]);
  });

  it('exports the build check from @boomerang/test-kit/built', () => {
    expect(Object.keys(built).sort()).toEqual(['ensureBuilt', 'staleWorkspaceDependencies']);
  });

  it('exports the throwaway PostgreSQL server from @boomerang/test-kit/postgres', () => {
    expect(Object.keys(postgres).sort()).toEqual([
      'freePort',
      'postgresBin',
      'postgresMissing',
      'startPostgres',
    ]);
  });

  it('exports the throwaway Redis and nginx servers and the shared notification source suite', () => {
    expect(Object.keys(redis).sort()).toEqual(['redisMissing', 'redisServerBin', 'startRedis']);
    expect(Object.keys(nginx).sort()).toEqual(['nginxBin', 'nginxMissing', 'startNginx']);
    expect(Object.keys(notificationSource).sort()).toEqual(['sharedNotificationSourceSuite']);
  });
});
