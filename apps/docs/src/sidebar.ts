// The site's table of contents: the VitePress sidebar and nav, and the order of llms.txt, from one list.

/** One page of the guide (not the generated reference). `link` is the path without `.md`. */
export interface PageLink {
  readonly text: string;
  readonly link: string;
}

/** A titled group of pages. */
export interface PageGroup {
  readonly text: string;
  readonly items: readonly PageLink[];
}

/**
 * The hand-written pages, in reading order. Groups are by what a reader is doing, so later guides slot in
 * without reshuffling: the client loop, transports and continuations under "Clients and transports", framework
 * mounting under "Serving", tasks beside custom methods, testing and deploying a fleet under "Operating". A group
 * with no page yet is left out of the list rather than shown empty.
 */
export const guide: readonly PageGroup[] = [
  {
    text: 'Concepts',
    items: [
      { text: 'Multi-round-trip requests', link: '/concepts/mrtr' },
      { text: 'The round trip on the wire', link: '/concepts/wire' },
      { text: 'Request state and sealing', link: '/concepts/request-state' },
    ],
  },
  {
    text: 'Building servers',
    items: [
      { text: 'Your first server in 5 minutes', link: '/guides/first-server' },
      { text: 'Resolvers', link: '/guides/resolvers' },
      { text: 'Hand-built rounds', link: '/guides/hand-built-rounds' },
      { text: 'Custom methods and extensions', link: '/guides/custom-methods' },
      { text: 'Tasks', link: '/guides/tasks' },
      { text: 'MCP Apps', link: '/guides/apps' },
      { text: 'Skills', link: '/guides/skills' },
    ],
  },
  {
    text: 'Clients and transports',
    items: [
      { text: 'The client: the loop, callbacks, continuations', link: '/guides/client' },
      { text: 'Transports', link: '/guides/transports' },
      { text: 'An approval inbox: continuations, exactly once', link: '/guides/continuations' },
    ],
  },
  {
    text: 'Serving',
    items: [
      { text: 'Mounting in Express, Fastify, Hono, Next.js…', link: '/guides/mounting' },
      { text: 'Serving 2025-11-25 clients', link: '/guides/legacy-clients' },
    ],
  },
  {
    text: 'Security',
    items: [
      { text: 'Authorization', link: '/guides/auth' },
      { text: '@boomerang/seal outside MCP', link: '/guides/seal' },
    ],
  },
  {
    text: 'Operating',
    items: [
      { text: 'Testing your server', link: '/guides/testing' },
      { text: 'Deploying a fleet', link: '/guides/deployment' },
      { text: 'Middleware, traces, metrics and limits', link: '/guides/operating' },
    ],
  },
  {
    text: 'Migrating',
    items: [
      { text: 'Migrating from the official SDK', link: '/migrating/official-sdk' },
      { text: 'From the official TypeScript SDK', link: '/migrating/typescript-sdk' },
      { text: 'From the Python SDK', link: '/migrating/python-sdk' },
    ],
  },
];

/** The reference pages beside the guide. */
export const reference: readonly PageLink[] = [
  { text: 'API reference', link: '/api/' },
  { text: 'Changelog', link: '/changelog' },
];

/** Every hand-written page of the guide, in order. */
export function guidePages(): PageLink[] {
  return guide.flatMap((group) => group.items);
}
