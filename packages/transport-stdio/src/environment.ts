import process from 'node:process';

/** Variables a server process needs to run at all: find programs, a home, a locale, a temp dir. */
const POSIX_NAMES = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TMPDIR',
  'TZ',
];
const WINDOWS_NAMES = [
  'APPDATA',
  'COMSPEC',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'PROGRAMFILES',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'TMP',
  'USERNAME',
  'USERPROFILE',
];

/**
 * The environment a `StdioClientTransport` gives its server when `env` does not override it: only the variables
 * a program needs to start (POSIX: `HOME LOGNAME PATH SHELL TERM USER LANG LC_ALL LC_CTYPE TMPDIR TZ`; Windows:
 * `APPDATA COMSPEC HOMEDRIVE HOMEPATH LOCALAPPDATA PATH PATHEXT PROCESSOR_ARCHITECTURE PROGRAMFILES SYSTEMDRIVE
 * SYSTEMROOT TEMP TMP USERNAME USERPROFILE`), copied from `process.env`. A host's other variables (API keys,
 * tokens) are not handed to every server it launches; pass them in `env` (or `env: process.env`) deliberately.
 * Values that look like exported shell functions (`() {…`) are skipped.
 */
export function defaultEnvironment(): Record<string, string> {
  const names = process.platform === 'win32' ? WINDOWS_NAMES : POSIX_NAMES;
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = process.env[name];
    if (value !== undefined && !value.startsWith('()')) env[name] = value;
  }
  return env;
}

/** `defaultEnvironment()` overlaid with `overrides`; a key set to `undefined` removes that variable. */
export function serverEnvironment(
  overrides: Readonly<Record<string, string | undefined>> = {},
): Record<string, string> {
  const env: Record<string, string> = defaultEnvironment();
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}
