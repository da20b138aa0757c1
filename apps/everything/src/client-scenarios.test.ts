import { describe, expect, it } from 'vitest';
import { scenarioFor, scenarios } from './client-scenarios.js';

describe('scenarioFor', () => {
  it('knows every non-auth client scenario of the suite at 2026-07-28 and 2025-11-25', () => {
    expect(Object.keys(scenarios).sort()).toEqual([
      'elicitation-sep1034-client-defaults',
      'http-custom-headers',
      'http-invalid-tool-headers',
      'http-standard-headers',
      'initialize',
      'json-schema-2020-12-preservation',
      'json-schema-ref-no-deref',
      'request-metadata',
      'sep-2322-client-request-state',
      'sep-2640-client-no-prefetch',
      'sep-2640-client-verify-digest',
      'sep-2640-client-verify-frontmatter',
      'sep-2640-client-verify-size',
      'sse-retry',
      'tools_call',
    ]);
  });

  it('runs the authorized flow for auth/* and nothing for an unknown name', () => {
    expect(scenarioFor('auth/metadata-default')).toBeTypeOf('function');
    expect(scenarioFor('toString')).toBeUndefined();
    expect(scenarioFor('no-such-scenario')).toBeUndefined();
  });
});
