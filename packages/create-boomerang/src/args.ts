// The command line of `create-boomerang`, parsed with node:util (no dependency).
import { parseArgs } from 'node:util';
import { TEMPLATES } from './templates.js';

/** What the command line asked for. */
export interface CliArgs {
  /** The project's folder, when given. */
  readonly dir: string | undefined;
  /** `--template <name>` (or `-t`). */
  readonly template: string | undefined;
  /** `--name <package name>`: when the folder's name is not the package name wanted. */
  readonly name: string | undefined;
  /** `--registry <url>`: where the `@boomerang` packages come from. */
  readonly registry: string | undefined;
  /** `--yes` (or `-y`): ask nothing, take the defaults. */
  readonly yes: boolean;
  /** `--no-install`: write the files only. */
  readonly install: boolean;
  readonly help: boolean;
  readonly version: boolean;
}

/** The `--help` text. */
export function usage(): string {
  const templates = TEMPLATES.map(
    (t) =>
      `    ${t.name.padEnd(12)} ${t.description}${t.aliases.length > 0 ? ` (also: ${t.aliases.join(', ')})` : ''}`,
  );
  return [
    'Usage: npm create boomerang@latest [dir] -- [options]',
    '       create-boomerang [dir] [options]',
    '',
    'Creates a Boomerang MCP server project in dir (default: my-boomerang-app), which must be missing or empty.',
    '',
    'Options:',
    `  -t, --template <name>  the project to start from (default: ${TEMPLATES[0]?.name}):`,
    ...templates,
    '      --name <name>      the package name (default: the folder name)',
    '      --registry <url>   where the @boomerang packages come from (written to the project .npmrc)',
    '      --no-install       write the files only; run the install yourself',
    '  -y, --yes              ask nothing, take the defaults',
    '  -h, --help             show this help',
    '  -v, --version          show the version',
    '',
  ].join('\n');
}

/**
 * Parses `argv` (without the node and script paths). Throws `TypeError` for an unknown option, an option missing
 * its value, or more than one folder, with a message for the user.
 */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      template: { type: 'string', short: 't' },
      name: { type: 'string' },
      registry: { type: 'string' },
      yes: { type: 'boolean', short: 'y' },
      'no-install': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  if (positionals.length > 1) {
    throw new TypeError(`expected one project folder, got ${positionals.length}: ${positionals.join(' ')}`);
  }
  return {
    dir: positionals[0],
    template: values.template,
    name: values.name,
    registry: values.registry,
    yes: values.yes === true,
    install: values['no-install'] !== true,
    help: values.help === true,
    version: values.version === true,
  };
}

/**
 * The registry URL, normalised to end with `/`, or the problem with it (only http: and https: URLs).
 */
export function parseRegistry(value: string): { ok: true; url: string } | { ok: false; problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, problem: `--registry expected a URL, got ${JSON.stringify(value)}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, problem: `--registry expected an http: or https: URL, got ${url.protocol}` };
  }
  return { ok: true, url: url.href.endsWith('/') ? url.href : `${url.href}/` };
}
