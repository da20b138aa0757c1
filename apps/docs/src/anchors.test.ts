import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headingAnchors, repairAnchors, slugify } from './anchors.js';

describe('anchors', () => {
  it('slugs headings as VitePress does, numbering repeats', () => {
    expect(slugify('ClientSession')).toBe('clientsession');
    expect(slugify('_meta?')).toBe('meta');
    expect(slugify('1.0.0 — first')).toBe('_1-0-0-—-first');
    expect([...headingAnchors('# A\n\n## `B` x\n\n```\n# not a heading\n```\n\n### A\n')]).toEqual([
      'a',
      'b-x',
      'a-1',
    ]);
  });

  it('rewrites numbered anchors that the target page will not have, and only those', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-anchors-'));
    writeFileSync(
      join(dir, 'a.md'),
      '# Thing\n\n[here](#thing-1) [there](b.md#other-1) [ok](b.md#other) [no](#none-1)\n',
    );
    writeFileSync(join(dir, 'b.md'), '# Other\n');
    expect(repairAnchors(dir)).toBe(2);
    expect(readFileSync(join(dir, 'a.md'), 'utf8')).toContain(
      '[here](#thing) [there](b.md#other) [ok](b.md#other) [no](#none-1)',
    );
  });

  it('rewrites anchors the target page has only in its VitePress slug (underscores become dashes)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-anchors-'));
    writeFileSync(join(dir, 'a.md'), '[s](b.md#task_statuses) [n](b.md#no_such) [ok](b.md#task-statuses)\n');
    writeFileSync(join(dir, 'b.md'), '### TASK\\_STATUSES\n');
    expect(repairAnchors(dir)).toBe(1);
    expect(readFileSync(join(dir, 'a.md'), 'utf8')).toContain(
      '[s](b.md#task-statuses) [n](b.md#no_such) [ok](b.md#task-statuses)',
    );
  });
});
