import { describe, expect, it } from 'vitest';
import { folderForName, projectNameProblems } from './names.js';

describe('projectNameProblems', () => {
  it.each(['my-app', 'app2', 'a.b_c-d', '@acme/tools', 'x'.repeat(214)])('accepts %s', (name) => {
    expect(projectNameProblems(name)).toEqual([]);
  });

  it.each([
    ['', /empty/],
    ['My-App', /capital letters/],
    ['.hidden', /period or an underscore/],
    ['_private', /period or an underscore/],
    [' padded', /spaces/],
    ['x'.repeat(215), /at most 214/],
    ["it's", /~'!\(\)\*/],
    ['a b', /URL-safe/],
    ['caf\u00e9', /URL-safe/],
    ['node_modules', /reserved/],
    ['favicon.ico', /reserved/],
    ['http', /built-in module/],
    ['@acme', /@scope\/name/],
    ['@acme/a/b', /@scope\/name/],
    ['@ac me/tools', /URL-safe/],
  ])('refuses %j (%s)', (name, reason) => {
    const problems = projectNameProblems(name);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('; ')).toMatch(reason);
  });
});

describe('folderForName', () => {
  it('is the last part of a scoped name, the name itself otherwise', () => {
    expect(folderForName('@acme/tools')).toBe('tools');
    expect(folderForName('my-app')).toBe('my-app');
  });
});
