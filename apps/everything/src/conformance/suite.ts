// Where the pinned conformance CLI and our Node 20 preload live, and how to call the CLI.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/**
 * The protocol revisions a run tests, in order: 2026-07-28 (the stateless wire), then 2025-11-25 (the suite's
 * stateful wire: `initialize`, sessions, server→client requests) against the same server and client programs.
 */
export const SPEC_VERSIONS = ['2026-07-28', '2025-11-25'] as const;

/** One of {@link SPEC_VERSIONS}. */
export type SpecVersion = (typeof SPEC_VERSIONS)[number];

/** apps/everything, from src/conformance/*.ts (tests) and from dist/conformance.js (the built runner) alike. */
export const appDir = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!isApp(dir)) {
    if (dirname(dir) === dir) throw new Error('cannot find the @boomerang/everything package directory');
    dir = dirname(dir);
  }
  return dir;
})();

function isApp(dir: string): boolean {
  const manifest = join(dir, 'package.json');
  return (
    existsSync(manifest) &&
    (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === '@boomerang/everything'
  );
}

/** The files a run needs. */
export interface SuitePaths {
  /** The conformance CLI (`dist/index.js` of the pinned devDependency). */
  readonly cli: string;
  /** Its version, as installed. */
  readonly version: string;
  /** `file:` URL of conformance/node20/preload.mjs, for `node --import`. */
  readonly preload: string;
  /** The built programs under test. */
  readonly serverJs: string;
  readonly clientJs: string;
  /** The checked-in expected failures of one revision. */
  expectedFailures(version: SpecVersion): string;
}

/** Locates the installed suite (the devDependency of this app) and the files of this app. */
export function suitePaths(): SuitePaths {
  const require = createRequire(join(appDir, 'package.json'));
  const manifest = require.resolve('@modelcontextprotocol/conformance/package.json');
  return {
    cli: join(dirname(manifest), 'dist/index.js'),
    version: (require(manifest) as { version: string }).version,
    preload: pathToFileURL(join(appDir, 'conformance/node20/preload.mjs')).href,
    serverJs: join(appDir, 'dist/server.js'),
    clientJs: join(appDir, 'dist/client.js'),
    expectedFailures: (version) =>
      join(
        appDir,
        version === '2026-07-28'
          ? 'conformance/expected-failures.yml'
          : `conformance/expected-failures-${version}.yml`,
      ),
  };
}

/** The arguments that run the CLI under Node with the preload: `node <cliArgs(...)>`. */
export function cliArgs(paths: SuitePaths, args: readonly string[]): string[] {
  return ['--import', paths.preload, paths.cli, ...args];
}

/**
 * Revisions whose legs also run the suite's extension scenarios (server: the ten of the tasks extension; client:
 * client credentials, DPoP, workload identity, enterprise-managed authorization): the `--requirements` set of the
 * revision lists them as run but never scored, and `--spec-version` never selects them. The older revision's
 * legs stay what they score.
 */
const EXTENSIONS_AT: readonly SpecVersion[] = ['2026-07-28'];

/**
 * The Skills extension's scenarios (SEP-2640), by leg. The CLI lists them nowhere (not even as `extension` in
 * `list --requirements`), so they are named here; each must also run at least one check (see `judge`), since
 * against a server without the extension every check is skipped and the scenario would "pass".
 */
export const SKILLS_SCENARIOS: Readonly<Record<'server' | 'client', readonly string[]>> = {
  server: ['sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory'],
  client: [
    'sep-2640-client-no-prefetch',
    'sep-2640-client-verify-digest',
    'sep-2640-client-verify-size',
    'sep-2640-client-verify-frontmatter',
  ],
};

/**
 * The extension scenarios of one leg at `version` (none before {@link EXTENSIONS_AT}), from the CLI's
 * `list --requirements`, plus {@link SKILLS_SCENARIOS}: they run by name, with `--force`.
 */
export async function extensionScenarios(
  paths: SuitePaths,
  leg: 'server' | 'client',
  version: SpecVersion,
): Promise<string[]> {
  if (!EXTENSIONS_AT.includes(version)) return [];
  const { stdout } = await promisify(execFile)(
    process.execPath,
    cliArgs(paths, ['list', `--${leg}`, '--requirements', version]),
    { timeout: 60_000 },
  );
  const listed = parseExtensionScenarios(stdout, leg);
  return [...listed, ...SKILLS_SCENARIOS[leg].filter((name) => !listed.includes(name))];
}

/**
 * The scenario names the CLI lists for one leg at `version` (what `--suite all` runs), plus, for the client leg,
 * its {@link extensionScenarios} (the server leg runs them apart, since `--suite all` does not select them).
 */
export async function listScenarios(
  paths: SuitePaths,
  leg: 'server' | 'client',
  version: SpecVersion,
): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    cliArgs(paths, ['list', `--${leg}`, '--spec-version', version]),
    { timeout: 60_000 },
  );
  const listed = parseScenarioList(stdout);
  if (leg === 'server') return listed;
  const extensions = await extensionScenarios(paths, leg, version);
  return [...listed, ...extensions.filter((name) => !listed.includes(name))];
}

/** The names in `conformance list` output: lines `  - <name> [<versions>]`. */
export function parseScenarioList(text: string): string[] {
  return [...text.matchAll(/^ {2}- (\S+)/gm)].map((match) => match[1] as string);
}

/**
 * The `extension` scenarios of one leg in `conformance list --requirements` output: the lines
 * `    - <name> [<leg>]` under `  extension (N):`.
 */
export function parseExtensionScenarios(text: string, leg: 'server' | 'client'): string[] {
  const section = /^ {2}extension \(\d+\):\n((?: {4}- .*\n?)*)/m.exec(text)?.[1] ?? '';
  return [...section.matchAll(/^ {4}- (\S+) \[(\w+)\]/gm)]
    .filter((match) => match[2] === leg)
    .map((match) => match[1] as string);
}
