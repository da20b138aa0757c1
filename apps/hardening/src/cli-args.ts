// The options of the hardening programs: `--name value` or `--name=value`, numbers only.

/** Reads `--name value` / `--name=value` pairs; throws `RangeError` naming a flag that is not in `known`. */
export function parseFlags(argv: readonly string[], known: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const match = /^--([\w-]+)(?:=(.*))?$/.exec(arg);
    if (match === null || !known.includes(match[1] as string)) {
      throw new RangeError(
        `unknown argument ${JSON.stringify(arg)} (known: ${known.map((k) => `--${k}`).join(', ')})`,
      );
    }
    const value = match[2] ?? argv[++i];
    if (value === undefined) throw new RangeError(`--${match[1]} needs a value`);
    flags.set(match[1] as string, value);
  }
  return flags;
}

/** A positive number from a flag (accepting `1e6`, `1_000_000`), else `fallback`; `RangeError` otherwise. */
export function positiveNumber(flags: Map<string, string>, name: string, fallback: number): number {
  const text = flags.get(name);
  if (text === undefined) return fallback;
  const value = Number(text.replaceAll('_', ''));
  if (!Number.isFinite(value) || value <= 0)
    throw new RangeError(`--${name} expected a positive number, got ${text}`);
  return value;
}
