import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRoots, parseServers, positiveInt, readJobs, secretKeys, UsageError } from './cli.js';

const dir = mkdtempSync(join(tmpdir(), 'inbox-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the command-line helpers', () => {
  it('parseServers reads name=url pairs and refuses anything else', () => {
    expect(parseServers(['shop=http://127.0.0.1:3000/mcp', 'x.y-z=https://a.example/mcp?k=v'])).toEqual({
      shop: 'http://127.0.0.1:3000/mcp',
      'x.y-z': 'https://a.example/mcp?k=v',
    });
    for (const bad of ['shop', '=http://a/mcp', 'a b=http://a/mcp', 'shop=file:///x', 'shop=http://a b']) {
      expect(() => parseServers([bad])).toThrow(UsageError);
    }
    expect(() => parseServers(['a=http://a/mcp', 'a=http://b/mcp'])).toThrow(/given twice/);
  });

  it('parseRoots makes file URIs of paths, keeps URIs, and defaults to the working directory', () => {
    expect(parseRoots(['/srv/shared', 'https://drive.example/team/'])).toEqual([
      { uri: 'file:///srv/shared', name: 'shared' },
      { uri: 'https://drive.example/team/', name: 'team' },
    ]);
    expect(parseRoots([], '/home/ada/work')).toEqual([{ uri: 'file:///home/ada/work', name: 'work' }]);
  });

  it('positiveInt takes integers in range and names the option otherwise', () => {
    expect(positiveInt(undefined, '--n', 7)).toBe(7);
    expect(positiveInt('3', '--n', 7)).toBe(3);
    expect(positiveInt('0', '--n', 7, true)).toBe(0);
    for (const bad of ['0', '-1', '1.5', 'x', ''])
      expect(() => positiveInt(bad, '--n', 7)).toThrow(/--n expected/);
  });

  it('secretKeys reads INBOX_SECRET, and refuses keys that are not', () => {
    expect(secretKeys({})).toBeUndefined();
    expect(secretKeys({ INBOX_SECRET: 'ab'.repeat(32) })?.[0]).toHaveLength(32);
    expect(() => secretKeys({ INBOX_SECRET: 'short' })).toThrow(UsageError);
  });

  it('readJobs names the file and what is wrong with it', () => {
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify([{ tool: 'check_stock', arguments: { title: 'Dune' } }]));
    expect(readJobs(good)).toEqual([{ tool: 'check_stock', arguments: { title: 'Dune' } }]);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '[{');
    expect(() => readJobs(broken)).toThrow(new RegExp(`^--jobs ${broken}: `));
    const wrong = join(dir, 'wrong.json');
    writeFileSync(wrong, JSON.stringify([{ tool: 3 }]));
    expect(() => readJobs(wrong)).toThrow(/jobs\[0\]\.tool expected a tool name/);
  });
});
