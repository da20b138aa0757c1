// The wire constants and shapes of the `io.modelcontextprotocol/skills` extension (SEP-2640), shared by its server
// side (@boomerang/mcp-server) and its client side (@boomerang/client). A skill is a folder with a `SKILL.md`
// (YAML frontmatter with `name` and `description`, then markdown) plus any files, served as resources under
// `skill://<skill-path>/…`; `skills/list` and `skills/get` publish one entry per skill with every file's size and
// SHA-256 digest, so a host can verify what `resources/read` later returns.

/** The identifier a server declares under `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
/** Lists the skills a server serves (paginated; an entry is never split across pages). */
export const SKILLS_LIST = 'skills/list';
/** One skill's entry by its `SKILL.md` URI; an unknown URI is `-32602`. */
export const SKILLS_GET = 'skills/get';
/** The direct children of a directory resource; served when the capability has `directoryRead: true`. */
export const RESOURCES_DIRECTORY_READ = 'resources/directory/read';
/** The `mimeType` of a directory resource. */
export const DIRECTORY_MIME_TYPE = 'inode/directory';
/** The file every skill has at its root. */
export const SKILL_MANIFEST = 'SKILL.md';

/**
 * Per-skill interoperability limits: hosts must accept skills up to 512 files (`SKILL.md` included) and
 * 16 MiB in total; servers should not publish larger ones, and Boomerang's client declines them.
 */
export const SKILL_LIMITS: Readonly<{ files: number; bytes: number }> = Object.freeze({
  files: 512,
  bytes: 16 * 1024 * 1024,
});

/** A digest as entries carry it: `sha256:` and 64 lowercase hexadecimal characters. */
export const SKILL_DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** The Agent Skills name rule: 1–64 lowercase letters, digits and single inner hyphens. */
export const SKILL_NAME_PATTERN = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** One file of a skill: what a host needs to verify it after `resources/read`. */
export interface SkillResourceEntry {
  /** The file's resource URI (the skill's `SKILL.md` or a file below the skill's folder). */
  readonly uri: string;
  /** `sha256:<hex>` of the file's raw bytes. */
  readonly digest: string;
  /** The length of the file's raw bytes. */
  readonly size: number;
}

/** A `SKILL.md`'s YAML frontmatter as JSON, verbatim: `name` and `description` always, any other fields kept. */
export interface SkillFrontmatter {
  readonly name: string;
  readonly description: string;
  readonly [field: string]: unknown;
}

/** One skill entry, as `skills/list` and `skills/get` carry it. */
export interface Skill {
  /** The resource URI of the skill's `SKILL.md`; its last folder segment equals `frontmatter.name`. */
  readonly uri: string;
  readonly frontmatter: SkillFrontmatter;
  /** Every file of the skill, `SKILL.md` included, each once; or `"dynamic"` (no manifest published). */
  readonly resources: readonly SkillResourceEntry[] | 'dynamic';
  readonly _meta?: Readonly<Record<string, unknown>> | undefined;
}

/** The value at `capabilities.extensions["io.modelcontextprotocol/skills"]`. */
export interface SkillsCapability {
  /** The server serves `resources/directory/read`. */
  readonly directoryRead?: boolean | undefined;
}

/**
 * `sha256:` followed by the lowercase hex SHA-256 of `bytes`, through Web Crypto (Node ≥ 20, browsers, Deno,
 * Bun, workers): the digest format of skill entries.
 */
export async function skillDigest(bytes: Uint8Array): Promise<string> {
  // Web Crypto refuses views over a SharedArrayBuffer: copy only those.
  const view = bytes.buffer instanceof ArrayBuffer ? bytes : new Uint8Array(bytes);
  const hash = new Uint8Array(
    await globalThis.crypto.subtle.digest('SHA-256', view as Uint8Array<ArrayBuffer>),
  );
  let hex = 'sha256:';
  for (const byte of hash) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Decodes UTF-8 when that loses nothing (a byte order mark is kept), else `undefined`. */
export function decodeUtf8Exactly(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
