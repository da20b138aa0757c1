import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLinks } from './links.js';

const dist = mkdtempSync(join(tmpdir(), 'docs-links-'));
mkdirSync(join(dist, 'guides'));
writeFileSync(join(dist, 'logo.svg'), '<svg/>');
writeFileSync(
  join(dist, 'index.html'),
  '<h1 id="top">Home</h1><a href="/guides/a.html#step-1">a</a><img src="/logo.svg">',
);
writeFileSync(
  join(dist, 'guides/a.html'),
  [
    '<h2 id="step-1">Step</h2>',
    '<a href="#step-1">self</a>',
    '<a href="../index.html#top">home</a>',
    '<a href="b.html">b</a>',
    '<a href="../index.html#nowhere">bad anchor</a>',
    '<a href="/missing.html">missing</a>',
    '<a class="x" href="https://example.com/#x">external</a>',
    '<img src="/gone.png">',
  ].join('\n'),
);
writeFileSync(
  join(dist, 'guides/b.html'),
  '<a href="./">index of guides</a><a href="/guides/a#step-1">clean</a>',
);

describe('the link check', () => {
  it('reports each broken internal link and anchor, and nothing else', () => {
    const report = checkLinks(dist);
    expect(report.pages).toBe(3);
    expect(report.links).toBe(10);
    expect(report.broken).toEqual([
      {
        page: 'guides/a.html',
        href: '../index.html#nowhere',
        reason: 'no element with id "nowhere" on index.html',
      },
      { page: 'guides/a.html', href: '/missing.html', reason: 'no such page or file' },
      { page: 'guides/a.html', href: '/gone.png', reason: 'no such page or file' },
      { page: 'guides/b.html', href: './', reason: 'no such page or file' },
    ]);
  });
});
