import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseExtensionScenarios, parseScenarioList, SPEC_VERSIONS, suitePaths } from './suite.js';
import {
  type Check,
  type ExpectedFailures,
  judge,
  parseExpectedFailures,
  unknownEntries,
} from './verdicts.js';

const none: ExpectedFailures = { server: new Map(), client: new Map() };
const check = (id: string, status: Check['status']): Check => ({
  id,
  status,
  errorMessage: `${id} says ${status}`,
});

describe('parseExpectedFailures', () => {
  it('reads scenario and scenario:check entries with their reasons', () => {
    const parsed = parseExpectedFailures(
      '# header\nserver:\n  - caching:ttl  # not yet\nclient:\n  - auth/x  # OAuth issue\n',
    );
    expect([...parsed.server]).toEqual([['caching:ttl', 'not yet']]);
    expect([...parsed.client]).toEqual([['auth/x', 'OAuth issue']]);
    expect(parseExpectedFailures('server: []\nclient: []\n')).toEqual(none);
  });

  it('refuses an entry without a reason, and lines that are not entries', () => {
    expect(() => parseExpectedFailures('server:\n  - caching\n')).toThrow(/line 2: "caching" needs a reason/);
    expect(() => parseExpectedFailures('server:\n  - caching  #  \n')).toThrow(SyntaxError);
    expect(() => parseExpectedFailures('  - caching  # no leg\n')).toThrow(/line 1/);
    expect(() => parseExpectedFailures('server:\n  - a: b  # YAML map\n')).toThrow(SyntaxError);
  });

  it('accepts the checked-in files', () => {
    for (const version of SPEC_VERSIONS) {
      const parsed = parseExpectedFailures(readFileSync(suitePaths().expectedFailures(version), 'utf8'));
      for (const [entry] of parsed.client) expect(entry).toMatch(/^auth\//);
    }
  });
});

describe('judge', () => {
  it('fails a server scenario on a FAILURE check, not on a WARNING', () => {
    expect(
      judge('server', 's', { checks: [check('a', 'SUCCESS'), check('b', 'WARNING')] }, none),
    ).toMatchObject({
      status: 'PASS',
      detail: '1/2 checks',
    });
    const failed = judge('server', 's', { checks: [check('a', 'FAILURE')] }, none);
    expect(failed.status).toBe('FAIL');
    expect(failed.detail).toContain('a says FAILURE');
    expect(judge('server', 's', { checks: undefined }, none)).toMatchObject({
      status: 'FAIL',
      detail: '0/0 checks: no results',
    });
  });

  it('fails a client scenario on a WARNING, a non-zero exit or a timeout', () => {
    const ok = [check('a', 'SUCCESS')];
    expect(judge('client', 'c', { checks: ok, exitCode: 0 }, none).status).toBe('PASS');
    expect(judge('client', 'c', { checks: [check('a', 'WARNING')], exitCode: 1 }, none).status).toBe('FAIL');
    expect(judge('client', 'c', { checks: ok, exitCode: 1 }, none).detail).toContain('exit 1');
    expect(judge('client', 'c', { checks: ok, exitCode: null, timedOut: true }, none).detail).toContain(
      'timed out',
    );
  });

  it('fails a scenario that must run checks when every check was skipped (the Skills ones)', () => {
    const skipped = [check('a', 'SKIPPED'), check('b', 'INFO')];
    expect(judge('server', 's', { checks: skipped, mustRunChecks: true }, none)).toMatchObject({
      status: 'FAIL',
      detail: '0/0 checks: no check ran (every one skipped)',
    });
    expect(judge('server', 's', { checks: skipped }, none).status).toBe('PASS');
    const ran = { checks: [check('a', 'SUCCESS'), check('b', 'SKIPPED')], exitCode: 0, mustRunChecks: true };
    expect(judge('client', 'c', ran, none)).toMatchObject({ status: 'PASS', detail: '1/1 checks' });
  });

  it('turns listed failures into XFAIL, and listed passes into STALE', () => {
    const expected = parseExpectedFailures('server:\n  - s  # whole\n  - t:b  # one check\nclient: []\n');
    const failing = { checks: [check('a', 'SUCCESS'), check('b', 'FAILURE')] };
    const passing = { checks: [check('a', 'SUCCESS'), check('b', 'SUCCESS')] };
    expect(judge('server', 's', failing, expected).status).toBe('XFAIL');
    expect(judge('server', 's', passing, expected).status).toBe('STALE');
    expect(judge('server', 't', failing, expected).status).toBe('XFAIL');
    expect(judge('server', 't', passing, expected).status).toBe('STALE');
    const another = { checks: [check('a', 'FAILURE'), check('b', 'FAILURE')] };
    expect(judge('server', 't', another, expected).status).toBe('FAIL');
  });

  it('names entries of scenarios that did not run', () => {
    const expected = parseExpectedFailures('server:\n  - gone:x  # old\nclient:\n  - here  # r\n');
    expect(unknownEntries(expected, { server: ['s'], client: ['here'] })).toEqual(['server: gone:x']);
  });
});

describe('parseScenarioList', () => {
  it('reads the names of `conformance list` output', () => {
    const text =
      'Client scenarios (test against a client):\n  - tools_call [2025-06-18,2026-07-28]\n  - auth/x [2026-07-28]\n';
    expect(parseScenarioList(text)).toEqual(['tools_call', 'auth/x']);
  });
});

describe('parseExtensionScenarios', () => {
  it('reads the extension scenarios of one leg from `conformance list --requirements` output', () => {
    const text = [
      'Client scenarios (test against a client):',
      '  - tools_call',
      '',
      'Run and reported, but never scored:',
      '  extension (3):',
      '    - auth/dpop [client]',
      '    - tasks-lifecycle [server]',
      '    - auth/wif-jwt-bearer [client]',
      '  added-after-release (1):',
      '    - json-schema-2020-12-preservation [client]',
      '',
    ].join('\n');
    expect(parseExtensionScenarios(text, 'client')).toEqual(['auth/dpop', 'auth/wif-jwt-bearer']);
    expect(parseExtensionScenarios(text, 'server')).toEqual(['tasks-lifecycle']);
    expect(parseExtensionScenarios('Client scenarios:\n  - tools_call\n', 'client')).toEqual([]);
  });
});
