// `node dist/cli.js build | dev | check`: the docs site's build (root scripts `pnpm docs:build`, `pnpm docs:dev`).
import { createServer } from 'vitepress';
import { siteDir } from './paths.js';
import { buildSite, DocsCheckError, prepareSite } from './site.js';

const usage = `usage: node dist/cli.js <command>
  build   generate the API reference and changelog, check the pages, build the site, write llms.txt, check links
  dev     generate, check, then serve the site with live reload on http://127.0.0.1:5173
  check   generate and check the pages, without building`;

async function main(command: string | undefined, flags: string[]): Promise<void> {
  const force = flags.includes('--force');
  switch (command) {
    case 'build': {
      const start = Date.now();
      await buildSite({ force, log: (line) => console.log(line) });
      console.log(`docs: built site/.vitepress/dist in ${((Date.now() - start) / 1000).toFixed(1)} s`);
      return;
    }
    case 'check':
      await prepareSite({ force });
      console.log('docs: pages OK');
      return;
    case 'dev': {
      await prepareSite({ force });
      const server = await createServer(siteDir, { host: '127.0.0.1', port: 5173 });
      await server.listen();
      server.printUrls();
      return;
    }
    default:
      console.error(usage);
      process.exitCode = 2;
  }
}

try {
  await main(process.argv[2], process.argv.slice(3));
} catch (error) {
  console.error(error instanceof DocsCheckError ? error.message : error);
  process.exitCode = 1;
}
