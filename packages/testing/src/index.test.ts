import { describe, expect, it } from 'vitest';
import * as built from './built.js';
import * as api from './index.js';
import * as postgres from './postgres-server.js';

describe('@boomerang/testing', () => {
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

  it('exports the build check from @boomerang/testing/built', () => {
    expect(Object.keys(built).sort()).toEqual(['ensureBuilt', 'staleWorkspaceDependencies']);
  });

  it('exports the throwaway PostgreSQL server from @boomerang/testing/postgres', () => {
    expect(Object.keys(postgres).sort()).toEqual(['postgresBin', 'postgresMissing', 'startPostgres']);
  });
});
