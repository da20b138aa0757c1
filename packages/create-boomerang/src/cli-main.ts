// What `create-boomerang` does, as a function of its arguments, its input/output and its environment (the bin in
// cli.ts wires it to the process): plan the project (asking where the arguments are silent, in a terminal),
// write it, install its dependencies, print the next steps.
import { basename, relative, resolve } from 'node:path';
import { type CliArgs, parseCliArgs, parseRegistry, usage } from './args.js';
import { installDependencies, type PackageManager, packageManagerFrom, runScript } from './install.js';
import { projectNameProblems } from './names.js';
import { ownVersion, scaffold, targetProblem } from './scaffold.js';
import { findTemplate, TEMPLATES, type Template } from './templates.js';

/** Where `create-boomerang` reads and writes. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * Asks the user a question and resolves with the answer (`''` takes the default). Absent when nobody can
   * answer (no terminal, CI): the defaults are taken, as with `--yes`.
   */
  readonly ask?: ((question: string) => Promise<string>) | undefined;
}

/** The process around `create-boomerang`. */
export interface CliEnvironment {
  /** The folder a relative project folder is taken from. */
  readonly cwd: string;
  /** The environment: `npm_config_user_agent` names the package manager, `npm_config_registry` a registry. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Runs the install (default: `<manager> install` in the folder); resolves with its exit code. */
  readonly install?: ((manager: PackageManager, dir: string) => Promise<number>) | undefined;
}

/** The folder a project gets when none is given. */
export const DEFAULT_DIR = 'my-boomerang-app';

/** The registries that are not "a local one": a registry set to one of them is not written to the project. */
const PUBLIC_REGISTRIES = ['https://registry.npmjs.org/', 'https://registry.yarnpkg.com/'];

/** A project ready to write, or why not. */
type Plan =
  | {
      readonly ok: true;
      readonly dir: string;
      readonly name: string;
      readonly template: Template;
      readonly registry: string | undefined;
    }
  | { readonly ok: false; readonly problem: string };

/** Asks `question` when someone can answer; the answer, or `fallback` when it is blank or nobody can. */
async function answer(ask: CliIo['ask'], question: string, fallback: string): Promise<string> {
  if (ask === undefined) return fallback;
  const given = (await ask(`${question} (${fallback}): `)).trim();
  return given === '' ? fallback : given;
}

/** The registry asked for with `--registry`, else a non-public one npm was started with (`npm create … --registry`). */
function registryOf(args: CliArgs, env: CliEnvironment['env']) {
  const value = args.registry ?? env.npm_config_registry;
  if (value === undefined || value === '') return { ok: true as const, url: undefined };
  const parsed = parseRegistry(value);
  if (parsed.ok && args.registry === undefined && PUBLIC_REGISTRIES.includes(parsed.url)) {
    return { ok: true as const, url: undefined };
  }
  return parsed;
}

/** Decides the folder, name, template and registry of the project, or the first problem with them. */
async function planProject(args: CliArgs, ask: CliIo['ask'], environment: CliEnvironment): Promise<Plan> {
  const dir = resolve(environment.cwd, args.dir ?? (await answer(ask, 'Project folder', DEFAULT_DIR)));
  const name = args.name ?? basename(dir);
  const nameProblems = projectNameProblems(name);
  if (nameProblems.length > 0) {
    const hint = args.name === undefined ? ' (name the package with --name, or rename the folder)' : '';
    return { ok: false, problem: `"${name}" is not a valid package name: ${nameProblems.join('; ')}${hint}` };
  }
  const problem = targetProblem(dir);
  if (problem !== undefined) return { ok: false, problem };
  const choices = TEMPLATES.map((t) => t.name).join(', ');
  const templateName =
    args.template ?? (await answer(ask, `Template: ${choices}`, TEMPLATES[0]?.name ?? 'server'));
  const template = findTemplate(templateName);
  if (template === undefined) {
    return { ok: false, problem: `no template "${templateName}"; the templates are ${choices}` };
  }
  const registry = registryOf(args, environment.env);
  if (!registry.ok) return { ok: false, problem: registry.problem };
  return { ok: true, dir, name, template, registry: registry.url };
}

/** The lines that tell the user what to run next. */
function nextSteps(manager: PackageManager, shownDir: string, installed: boolean): string {
  const steps = [
    ...(shownDir === '' ? [] : [`cd ${shownDir.includes(' ') ? JSON.stringify(shownDir) : shownDir}`]),
    ...(installed ? [] : [`${manager} install`]),
    `${runScript(manager, 'test')}   # compile and run the tests`,
    `${runScript(manager, 'dev')}    # compile, then call the tool through the client`,
  ];
  return `\nNext:\n${steps.map((step) => `  ${step}`).join('\n')}\n`;
}

/**
 * Runs `create-boomerang` with `argv` (the arguments after the bin's name) and resolves with the exit code: 0
 * when the project was written (and installed, unless `--no-install`), 1 when it could not be (a bad name, a
 * folder that is not empty, an unknown template, a failed install: each says why), 2 for a bad command line.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  environment: CliEnvironment,
): Promise<number> {
  let args: CliArgs;
  try {
    args = parseCliArgs(argv);
  } catch (error) {
    io.stderr(`create-boomerang: ${error instanceof Error ? error.message : String(error)}\n\n${usage()}`);
    return 2;
  }
  if (args.help || args.version) {
    io.stdout(args.help ? usage() : `${ownVersion()}\n`);
    return 0;
  }
  const plan = await planProject(args, args.yes ? undefined : io.ask, environment);
  if (!plan.ok) {
    io.stderr(`create-boomerang: ${plan.problem}\n`);
    return 1;
  }
  const files = scaffold({
    dir: plan.dir,
    name: plan.name,
    template: plan.template,
    registry: plan.registry,
  });
  const shownDir = relative(environment.cwd, plan.dir);
  io.stdout(
    `Created ${plan.name} from the ${plan.template.name} template in ${plan.dir} (${files.length} files).\n`,
  );
  if (plan.registry !== undefined)
    io.stdout(`The @boomerang packages come from ${plan.registry} (.npmrc).\n`);
  const manager = packageManagerFrom(environment.env.npm_config_user_agent);
  let installed = false;
  if (args.install) {
    io.stdout(`\nInstalling the dependencies with ${manager}…\n`);
    const code = await (environment.install ?? installDependencies)(manager, plan.dir);
    if (code !== 0) {
      io.stderr(
        `create-boomerang: ${manager} install failed (exit ${code}); the files are written, run it again.\n`,
      );
      io.stdout(nextSteps(manager, shownDir, false));
      return 1;
    }
    installed = true;
  }
  io.stdout(nextSteps(manager, shownDir, installed));
  return 0;
}
