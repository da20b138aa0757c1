import { existsSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitepress';
import { guide, reference } from '../../src/sidebar.js';

/** The API sidebar typedoc-vitepress-theme wrote beside the reference (absent before the first build). */
function apiSidebar(): { text: string; link: string }[] {
  const file = new URL('../api/typedoc-sidebar.json', import.meta.url);
  if (!existsSync(file)) return [];
  return JSON.parse(readFileSync(file, 'utf8')) as { text: string; link: string }[];
}

const guideSidebar = [
  ...guide.map((group) => ({ text: group.text, items: group.items.map((item) => ({ ...item })) })),
  { text: 'Reference', items: reference.map((item) => ({ ...item })) },
];

export default defineConfig({
  title: 'Boomerang',
  description:
    'A TypeScript SDK for the Model Context Protocol 2026-07-28, built around multi-round-trip requests.',
  lang: 'en-US',
  cleanUrls: false,
  lastUpdated: false,
  // Dead links fail the build; src/links.ts checks anchors too, on the built pages.
  ignoreDeadLinks: false,
  head: [['link', { rel: 'icon', href: '/boomerang.svg', type: 'image/svg+xml' }]],
  markdown: { theme: { light: 'github-light', dark: 'github-dark' } },
  themeConfig: {
    logo: '/boomerang.svg',
    nav: [
      { text: 'Concepts', link: '/concepts/mrtr', activeMatch: '^/concepts/' },
      { text: 'Guides', link: '/guides/first-server', activeMatch: '^/(guides|migrating)/' },
      { text: 'API', link: '/api/', activeMatch: '^/api/' },
      { text: 'Changelog', link: '/changelog' },
    ],
    sidebar: {
      '/api/': [
        { text: 'API reference', link: '/api/', items: apiSidebar() },
        { text: 'Guide', items: [{ text: 'Back to the guide', link: '/concepts/mrtr' }] },
      ],
      '/': guideSidebar,
    },
    search: { provider: 'local' },
    outline: { level: [2, 3] },
    footer: { message: 'MIT licensed. Every code sample on this site is a tested file.' },
  },
});
