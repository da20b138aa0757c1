// Building a skills catalog from storage: walk the tree (bounded), find every folder holding a SKILL.md, read and
// hash each skill's files once, and keep metadata only (URIs, sizes, digests, directory listings). A skill that
// breaks a rule is a problem naming its path; nothing of it is served.
import type { Resource } from '@boomerang/protocol';
import {
  canonicalUri,
  DIRECTORY_MIME_TYPE,
  decodeUtf8Exactly,
  FrontmatterError,
  parseSkillMarkdown,
  SKILL_LIMITS,
  SKILL_MANIFEST,
  type Skill,
  type SkillFrontmatter,
  type SkillResourceEntry,
  skillDigest,
  skillEntryProblems,
  skillFileUri,
} from '@boomerang/protocol/skills';

/** One entry of a folder, as a {@link SkillFiles} adapter lists it. */
export interface SkillFileEntry {
  /** The entry's name in its folder (no `/`). */
  readonly name: string;
  /** `other`: anything that is neither a regular file nor a folder (symbolic links included), never followed. */
  readonly kind: 'file' | 'directory' | 'other';
  /** Files: the size in bytes, known before reading (so oversized skills are refused unread). */
  readonly size?: number | undefined;
}

/**
 * Where a catalog reads skills from: `nodeSkillFiles(root)` of `@boomerang/mcp-server/node` for a folder,
 * {@link memorySkillFiles} for tests, or your own (a bucket, a database). Paths are `/`-separated names relative
 * to the adapter's root (`''` is the root) and only ever names the adapter listed itself.
 */
export interface SkillFiles {
  /** The entries of the folder at `path`. */
  list(path: string): Promise<readonly SkillFileEntry[]>;
  /** The bytes of the regular file at `path`; rejects (without reading it) when it is over `maxBytes`. */
  read(path: string, maxBytes: number): Promise<Uint8Array>;
}

/** Something wrong with one skill (or the tree), and where. */
export interface SkillProblem {
  /** The path relative to the catalog's root (`.` for the root itself). */
  readonly path: string;
  readonly message: string;
}

/** Bounds of a catalog build. */
export interface SkillLimits {
  /** Files per skill, `SKILL.md` included (default 512, SEP-2640's interoperability limit). */
  readonly files?: number;
  /** Bytes per skill, summed over its files (default 16 MiB, SEP-2640's interoperability limit). */
  readonly bytes?: number;
  /** Entries walked in the whole tree, hidden ones excluded (default 10 000). */
  readonly entries?: number;
  /** Folder depth below the root (default 16). */
  readonly depth?: number;
}

/** A file a catalog serves: where it lives and what was published for it. */
export interface CatalogFile {
  readonly path: string;
  readonly uri: string;
  readonly size: number;
  readonly digest: string;
  readonly mimeType: string;
}

/** A served skill: its entry, and the `SKILL.md` resource `resources/list` shows. */
export interface CatalogSkill {
  readonly skill: Skill;
  readonly manifest: {
    readonly uri: string;
    readonly name: string;
    readonly description: string;
    readonly mimeType: string;
    readonly size: number;
  };
}

/** Everything a catalog serves, by canonical URI: metadata only, never file contents. */
export interface CatalogSnapshot {
  readonly skills: readonly CatalogSkill[];
  readonly byUri: ReadonlyMap<string, CatalogSkill>;
  readonly files: ReadonlyMap<string, CatalogFile>;
  readonly dirs: ReadonlyMap<string, readonly Resource[]>;
  readonly problems: readonly SkillProblem[];
}

interface TreeEntry {
  readonly path: string;
  readonly kind: SkillFileEntry['kind'];
  readonly size: number;
}

type Limits = Required<SkillLimits>;

const DEFAULT_LIMITS: Limits = { ...SKILL_LIMITS, entries: 10_000, depth: 16 };

const MIME_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  py: 'text/x-python',
  sh: 'application/x-sh',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/typescript',
  html: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  pdf: 'application/pdf',
};

/** The MIME type of a file name by its extension; `application/octet-stream` when unknown. */
export function mimeTypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  const extension = dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
  return Object.hasOwn(MIME_TYPES, extension)
    ? (MIME_TYPES[extension] as string)
    : 'application/octet-stream';
}

/** Checks and completes `limits`: positive safe integers. Throws `RangeError` naming the bad one. */
export function resolveLimits(limits: SkillLimits | undefined): Limits {
  const resolved = { ...DEFAULT_LIMITS, ...limits };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`"limits.${name}" expected a positive integer, got ${String(value)}`);
    }
  }
  return resolved;
}

const NOT_FOLLOWED = 'is a symbolic link or special file, never followed (copy the file in)';
const basename = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
const dirname = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Every non-hidden entry below the root, sorted per folder; a tree over the limits is a thrown problem. */
async function walk(files: SkillFiles, limits: Limits): Promise<TreeEntry[]> {
  const tree: TreeEntry[] = [];
  const visit = async (dir: string, depth: number): Promise<void> => {
    let entries: readonly SkillFileEntry[];
    try {
      entries = await files.list(dir);
    } catch (error) {
      throw new SkillCatalogError([{ path: dir || '.', message: `cannot be listed: ${reason(error)}` }]);
    }
    const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of sorted) {
      if (entry.name.startsWith('.')) continue;
      if (entry.name === '' || /[/\\\0]/.test(entry.name)) {
        throw new SkillCatalogError([{ path: dir || '.', message: `holds an entry with an unusable name` }]);
      }
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (tree.length >= limits.entries) {
        throw new SkillCatalogError([{ path: '.', message: `holds more than ${limits.entries} entries` }]);
      }
      const size = entry.kind === 'file' && Number.isSafeInteger(entry.size) ? (entry.size as number) : 0;
      tree.push({ path, kind: entry.kind, size });
      if (entry.kind !== 'directory') continue;
      if (depth >= limits.depth) {
        throw new SkillCatalogError([{ path, message: `is nested more than ${limits.depth} folders deep` }]);
      }
      await visit(path, depth + 1);
    }
  };
  await visit('', 0);
  return tree;
}

/** What one skill's build needs besides its folder. */
interface BuildContext {
  readonly files: SkillFiles;
  readonly limits: Limits;
  readonly prefix: readonly string[];
  readonly hashed: Map<string, { size: number; digest: string }>;
}

const uriOf = (context: BuildContext, path: string): string | undefined =>
  path === '' && context.prefix.length === 0
    ? undefined
    : skillFileUri('skill://', [...context.prefix, ...(path === '' ? [] : path.split('/'))]);

/**
 * Builds one skill from the entries below `dir` (nested skills' included): every file read and hashed once,
 * `SKILL.md`'s frontmatter read strictly, the entry checked. Returns the problems instead when there are any.
 */
async function buildSkill(
  context: BuildContext,
  dir: string,
  inside: readonly TreeEntry[],
): Promise<{ built: CatalogSkill; files: CatalogFile[] } | { problems: SkillProblem[] }> {
  const fail = (path: string, message: string) => ({ problems: [{ path, message }] });
  const special = inside.find((entry) => entry.kind === 'other');
  if (special !== undefined) return fail(special.path, `${NOT_FOLLOWED} (the skill is not served)`);
  const regular = inside.filter((entry) => entry.kind === 'file');
  const total = regular.reduce((sum, entry) => sum + entry.size, 0);
  if (regular.length > context.limits.files || total > context.limits.bytes) {
    return fail(
      dir,
      `${regular.length} files / ${total} bytes is over the limits of ${context.limits.files} files / ${context.limits.bytes} bytes`,
    );
  }
  const files: CatalogFile[] = [];
  let manifest: Uint8Array | undefined;
  for (const entry of inside) {
    const uri = uriOf(context, entry.path);
    if (uri === undefined) return fail(entry.path, 'has a name that cannot be written in a URI');
    if (entry.kind !== 'file') continue;
    const own = entry.path === `${dir}/${SKILL_MANIFEST}`;
    let bytes: Uint8Array | undefined;
    let hash = context.hashed.get(entry.path);
    if (hash === undefined || own) {
      try {
        bytes = await context.files.read(entry.path, context.limits.bytes);
      } catch (error) {
        return fail(entry.path, `cannot be read: ${reason(error)}`);
      }
      if (bytes.byteLength !== entry.size) return fail(entry.path, 'changed while the catalog was built');
      hash = { size: bytes.byteLength, digest: await skillDigest(bytes) };
      context.hashed.set(entry.path, hash);
    }
    if (own) manifest = bytes;
    files.push({ path: entry.path, uri, ...hash, mimeType: mimeTypeOf(basename(entry.path)) });
  }
  const manifestPath = `${dir}/${SKILL_MANIFEST}`;
  const text = manifest === undefined ? undefined : decodeUtf8Exactly(manifest);
  if (text === undefined) return fail(manifestPath, 'is not valid UTF-8');
  let frontmatter: Record<string, unknown>;
  try {
    frontmatter = parseSkillMarkdown(text).frontmatter;
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
    return fail(manifestPath, `frontmatter: ${error.message}`);
  }
  const resources: SkillResourceEntry[] = files
    .map(({ uri, digest, size }) => ({ uri, digest, size }))
    .sort((a, b) => (a.uri < b.uri ? -1 : 1));
  const skill = {
    uri: uriOf(context, manifestPath) as string,
    frontmatter: frontmatter as SkillFrontmatter,
    resources,
  };
  const problems = skillEntryProblems(skill);
  if (problems.length > 0) return { problems: problems.map((message) => ({ path: manifestPath, message })) };
  const size = manifest?.byteLength ?? 0;
  const { name, description } = skill.frontmatter;
  return {
    built: {
      skill: deepFreeze(skill),
      manifest: { uri: skill.uri, name, description, mimeType: 'text/markdown', size },
    },
    files,
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

/** The children of every served folder (each skill's and the folders inside it), sorted by URI. */
function listDirectories(
  context: BuildContext,
  tree: readonly TreeEntry[],
  served: ReadonlySet<string>,
  files: ReadonlyMap<string, CatalogFile>,
): Map<string, Resource[]> {
  const dirs = new Map<string, Resource[]>();
  for (const dir of served) {
    const children: Resource[] = [];
    for (const entry of tree) {
      if (dirname(entry.path) !== dir) continue;
      const uri = uriOf(context, entry.path) as string;
      const name = basename(entry.path);
      if (entry.kind === 'directory') children.push({ uri, name, mimeType: DIRECTORY_MIME_TYPE });
      const file = files.get(uri);
      if (entry.kind === 'file' && file !== undefined) {
        children.push({ uri, name, mimeType: file.mimeType, size: file.size });
      }
    }
    children.sort((a, b) => (a.uri < b.uri ? -1 : 1));
    dirs.set(uriOf(context, dir) as string, children);
  }
  return dirs;
}

/**
 * Builds the catalog of the skills below the adapter's root, the deepest skill folders first so that a file of
 * nested skills is read once. Throws {@link SkillCatalogError} when the tree cannot be walked (unlistable, too
 * many entries, too deep), and with `strict` when any skill has a problem; otherwise skills with problems are
 * left out and their problems returned.
 */
export async function buildCatalog(
  files: SkillFiles,
  options: { limits: Limits; prefix: readonly string[]; strict: boolean },
): Promise<CatalogSnapshot> {
  const context: BuildContext = { files, limits: options.limits, prefix: options.prefix, hashed: new Map() };
  const tree = await walk(files, options.limits);
  const problems: SkillProblem[] = [];
  const manifests = tree.filter(
    (entry) => basename(entry.path) === SKILL_MANIFEST && entry.kind !== 'directory',
  );
  manifests.sort((a, b) => b.path.split('/').length - a.path.split('/').length);
  // A link or special file outside every skill (a symlinked skill folder) is reported too: it is never followed.
  const skillDirs = manifests.map((manifest) => dirname(manifest.path));
  for (const entry of tree) {
    const inSkill = skillDirs.some((dir) => dir === '' || entry.path.startsWith(`${dir}/`));
    if (entry.kind === 'other' && !inSkill && basename(entry.path) !== SKILL_MANIFEST) {
      problems.push({ path: entry.path, message: `${NOT_FOLLOWED} (not served)` });
    }
  }
  const skills: CatalogSkill[] = [];
  const served = new Map<string, CatalogFile>();
  const servedDirs = new Set<string>();
  for (const manifest of manifests) {
    const dir = dirname(manifest.path);
    if (dir === '' && options.prefix.length === 0) {
      problems.push({ path: manifest.path, message: 'is at the root: a skill is a folder holding SKILL.md' });
      continue;
    }
    const inside = tree.filter((entry) => dir === '' || entry.path.startsWith(`${dir}/`));
    const outcome = await buildSkill(context, dir, inside);
    if ('problems' in outcome) {
      problems.push(...outcome.problems);
      continue;
    }
    skills.push(outcome.built);
    for (const file of outcome.files) served.set(file.uri, file);
    servedDirs.add(dir);
    for (const entry of inside) if (entry.kind === 'directory') servedDirs.add(entry.path);
  }
  if (options.strict && problems.length > 0) throw new SkillCatalogError(problems);
  skills.sort((a, b) => (a.skill.uri < b.skill.uri ? -1 : 1));
  return {
    skills,
    byUri: new Map(skills.map((entry) => [canonicalUri(entry.skill.uri) as string, entry])),
    files: served,
    dirs: listDirectories(context, tree, servedDirs, served),
    problems,
  };
}

/** A skills catalog could not be built: every problem found, each naming its path. */
export class SkillCatalogError extends Error {
  override readonly name = 'SkillCatalogError';
  readonly problems: readonly SkillProblem[];

  constructor(problems: readonly SkillProblem[]) {
    super(`skills catalog: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
    this.problems = problems;
  }
}
