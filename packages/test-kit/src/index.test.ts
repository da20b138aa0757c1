import { describe, expect, it } from 'vitest';
import * as built from './built.js';
import * as api from './index.js';
import * as postgres from './postgres-server.js';

describe('@boomerang/test-kit', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'errorOf',
      'requestTransportSuite',
      'resultOf',
      'serveOverStream',
      'streamTransportSuite',
      'suiteServer',
    ]);
  });

  it('exports the build check from @boomerang/test-kit/built', () => {
    expect(Object.keys(built).sort()).toEqual(['ensureBuilt', 'staleWorkspaceDependencies']);
  });

  it('exports the throwaway PostgreSQL server from @boomerang/test-kit/postgres', () => {
    expect(Object.keys(postgres).sort()).toEqual(['postgresBin', 'postgresMissing', 'startPostgres']);
  });
});
