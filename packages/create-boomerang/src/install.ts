// The package manager the user started us with (`npm create`, `pnpm create`, `yarn create`, `bun create` each
// say who they are in npm_config_user_agent), and the install it runs in the new project.
import { spawn } from 'node:child_process';

/** The package managers whose `create` runs this package. */
export type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

/** The package manager named at the start of a `npm_config_user_agent` (`pnpm/10.3.0 npm/? node/v20…`); npm when none. */
export function packageManagerFrom(userAgent: string | undefined): PackageManager {
  const name = userAgent?.split('/', 1)[0];
  return name === 'pnpm' || name === 'yarn' || name === 'bun' ? name : 'npm';
}

/**
 * How the user runs a script of the project with `manager`: `npm run dev`, `pnpm dev`, `yarn dev`, `bun run dev`
 * (`npm test` and `npm start` without `run`, as npm has them built in).
 */
export function runScript(manager: PackageManager, script: string): string {
  if (manager === 'npm' && (script === 'test' || script === 'start')) return `npm ${script}`;
  return manager === 'npm' || manager === 'bun' ? `${manager} run ${script}` : `${manager} ${script}`;
}

/**
 * Runs `<manager> install` in `dir`, its output shown to the user, and resolves with its exit code (1 when it
 * could not start, e.g. the manager is not installed).
 */
export function installDependencies(manager: PackageManager, dir: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(manager, ['install'], {
      cwd: dir,
      stdio: 'inherit',
      shell: process.platform === 'win32', // npm.cmd and friends
    });
    child.once('error', () => resolve(1));
    child.once('exit', (code) => resolve(code ?? 1));
  });
}
