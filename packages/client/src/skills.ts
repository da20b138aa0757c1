// The host side of Skills over MCP (SEP-2640, `io.modelcontextprotocol/skills`): list a server's skills, and read
// a skill's files only when asked (never ahead of need), each verified against the entry the server published:
// listed, same size, same SHA-256 digest, and for SKILL.md the same frontmatter. Content that fails is never
// returned. Built on a Client's public calls only.
import { hasExtension, isPlainObject, type ReadResourceResult, type Resource } from '@boomerang/protocol';
import {
  canonicalUri,
  checkSkill,
  decodeUtf8Exactly,
  GetSkillResultSchema,
  isWithinSkill,
  ListSkillsResultSchema,
  parseSkillMarkdown,
  RESOURCES_DIRECTORY_READ,
  ReadResourceDirectoryResultSchema,
  SKILL_LIMITS,
  SKILLS_EXTENSION,
  SKILLS_GET,
  SKILLS_LIST,
  type Skill,
  type SkillResourceEntry,
  skillDigest,
  skillEntryProblems,
  skillRootUri,
} from '@boomerang/protocol/skills';
import type { Client } from './client.js';
import type { CallOptions } from './options.js';

/** Why a skill file was refused. */
export type SkillVerificationReason = 'unlisted' | 'size' | 'digest' | 'frontmatter' | 'content';

/**
 * A skill file failed verification against its entry: `unlisted` (not a file of the skill; nothing was
 * requested), `size`, `digest`, `frontmatter` (SKILL.md's frontmatter unreadable or different from the entry's),
 * or `content` (no content for the URI, or a blob that is not base64). Hosts must not use the file, and for
 * SKILL.md must not load the skill.
 */
export class SkillVerificationError extends Error {
  override readonly name = 'SkillVerificationError';
  readonly reason: SkillVerificationReason;
  /** The file's URI. */
  readonly uri: string;
  /** `frontmatter`: one line per differing field. */
  readonly differences: readonly string[];

  constructor(
    reason: SkillVerificationReason,
    uri: string,
    message: string,
    differences: readonly string[] = [],
  ) {
    super(message);
    this.reason = reason;
    this.uri = uri;
    this.differences = differences;
  }
}

/** A `skills/list` entry refused because it breaks the extension's rules (or repeats another entry's URI). */
export interface InvalidSkillEntry {
  /** Its position across every page read. */
  readonly index: number;
  readonly uri?: string | undefined;
  readonly problems: readonly string[];
}

/** What {@link SkillsClient.list} found: the valid entries, and the refused ones. */
export interface SkillListing {
  readonly skills: readonly Skill[];
  readonly invalid: readonly InvalidSkillEntry[];
}

/** A file read and verified by {@link SkillsClient.read}. */
export interface SkillFile {
  readonly uri: string;
  readonly mimeType?: string | undefined;
  /** Exactly the bytes the entry's digest covers. */
  readonly bytes: Uint8Array;
  /** The content as text, when the server sent text. */
  readonly text?: string | undefined;
  /** Size and digest were checked: `false` only for a skill whose resources are `"dynamic"`. */
  readonly verified: boolean;
}

/** A skill whose SKILL.md was read and verified: its frontmatter (equal to the entry's) and markdown body. */
export interface LoadedSkill {
  readonly skill: Skill;
  readonly manifest: SkillFile;
  readonly frontmatter: Record<string, unknown>;
  readonly body: string;
}

/** Options of a {@link SkillsClient}. */
export interface SkillsClientOptions {
  /** Pages of `skills/list` (and of a directory) read before giving up (default 100). */
  readonly maxPages?: number;
}

/** Field-level differences between the entry's frontmatter and SKILL.md's: no coercion, keys both ways. */
function differences(entry: unknown, file: unknown, path = ''): string[] {
  const at = path === '' ? '(frontmatter)' : path;
  if (Array.isArray(entry) && Array.isArray(file)) {
    if (entry.length !== file.length)
      return [`${at}: ${entry.length} items in the entry, ${file.length} in SKILL.md`];
    return entry.flatMap((item, index) => differences(item, file[index], `${path}[${index}]`));
  }
  if (isPlainObject(entry) && isPlainObject(file)) {
    const keys = [...new Set([...Object.keys(entry), ...Object.keys(file)])].sort();
    return keys.flatMap((key) => differences(entry[key], file[key], path === '' ? key : `${path}.${key}`));
  }
  const show = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));
  return Object.is(entry, file) ? [] : [`${at}: the entry has ${show(entry)}, SKILL.md has ${show(file)}`];
}

function decodeBase64(uri: string, blob: string): Uint8Array {
  try {
    return Uint8Array.from(atob(blob), (char) => char.charCodeAt(0));
  } catch {
    throw new SkillVerificationError('content', uri, `${uri}: the server sent a blob that is not base64`);
  }
}

/**
 * Skills of one server, through `client`: {@link SkillsClient.list} the entries, then {@link SkillsClient.load}
 * a skill when it is needed and {@link SkillsClient.read} its other files as they are needed. Nothing is read
 * before it is asked for. Approval, and what a host does with a loaded skill, stay with the host.
 *
 * ```ts
 * const skills = new SkillsClient(client);
 * const { skills: entries } = await skills.list();
 * const { body } = await skills.load(entries[0]);            // SKILL.md, verified
 * const forms = await skills.read(entries[0], 'references/FORMS.md');
 * ```
 */
export class SkillsClient {
  readonly #client: Client;
  readonly #maxPages: number;

  constructor(client: Client, options: SkillsClientOptions = {}) {
    const { maxPages = 100 } = options;
    if (!Number.isSafeInteger(maxPages) || maxPages < 1) {
      throw new RangeError(`"maxPages" expected a positive integer, got ${String(maxPages)}`);
    }
    this.#client = client;
    this.#maxPages = maxPages;
  }

  /** Whether the server declares the extension (from its known capabilities, else a `server/discover`). */
  async supported(options?: CallOptions): Promise<boolean> {
    const capabilities =
      this.#client.serverCapabilities ?? (await this.#client.discover(options)).capabilities;
    return hasExtension(capabilities, SKILLS_EXTENSION);
  }

  /**
   * Every skill the server lists (every page). Entries that break the extension's rules, or whose URI repeats
   * another's, are refused into `invalid`, never returned as skills. Rejects when the server keeps paging past
   * `maxPages` or repeats a cursor; a server's JSON-RPC error rejects as its `McpError`.
   */
  async list(options?: CallOptions): Promise<SkillListing> {
    const values: unknown[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let pages = 0; ; pages++) {
      if (pages === this.#maxPages)
        throw new Error(`${SKILLS_LIST} returned more than ${this.#maxPages} pages`);
      const params = cursor === undefined ? {} : { cursor };
      const result = await this.#client.request(SKILLS_LIST, params, {
        ...options,
        result: ListSkillsResultSchema,
      });
      values.push(...result.skills);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
      if (cursors.has(cursor))
        throw new Error(`${SKILLS_LIST} repeated the cursor ${JSON.stringify(cursor)}`);
      cursors.add(cursor);
    }
    const keys = values.map((value) =>
      isPlainObject(value) && typeof value.uri === 'string'
        ? (canonicalUri(value.uri) ?? value.uri)
        : undefined,
    );
    // Counted once (a Map, not indexOf per entry): a listing of a million entries costs linear time.
    const copies = new Map<string, number>();
    for (const key of keys) if (key !== undefined) copies.set(key, (copies.get(key) ?? 0) + 1);
    const skills: Skill[] = [];
    const invalid: InvalidSkillEntry[] = [];
    for (const [index, value] of values.entries()) {
      const key = keys[index];
      const checked = checkSkill(value);
      const repeated = key !== undefined && (copies.get(key) ?? 0) > 1;
      if (checked.ok && !repeated) {
        skills.push(checked.skill);
        continue;
      }
      const problems = [
        ...(checked.ok ? [] : checked.problems),
        ...(repeated ? ['another entry has the same uri'] : []),
      ];
      const uri = isPlainObject(value) && typeof value.uri === 'string' ? value.uri : undefined;
      invalid.push({ index, uri, problems });
    }
    return { skills, invalid };
  }

  /** One skill's entry by its SKILL.md URI (`skills/get`); rejects when the server answers an invalid entry. */
  async get(uri: string, options?: CallOptions): Promise<Skill> {
    const { skill } = await this.#client.request(
      SKILLS_GET,
      { uri },
      { ...options, result: GetSkillResultSchema },
    );
    const checked = checkSkill(skill);
    if (!checked.ok) {
      throw new Error(`${SKILLS_GET} returned an invalid entry for ${uri}: ${checked.problems.join('; ')}`);
    }
    if (canonicalUri(checked.skill.uri) !== canonicalUri(uri)) {
      throw new Error(`${SKILLS_GET} for ${uri} returned ${checked.skill.uri}`);
    }
    return checked.skill;
  }

  /**
   * Loads `skill`: reads its SKILL.md, verifies size and digest, and checks that its frontmatter equals the
   * entry's field by field. Rejects with a {@link SkillVerificationError} otherwise (do not load the skill then).
   */
  async load(skill: Skill, options?: CallOptions): Promise<LoadedSkill> {
    const manifest = await this.read(skill, 'SKILL.md', options);
    return { skill, manifest, ...this.#frontmatterOf(skill, manifest) };
  }

  /**
   * Reads one file of `skill` (`path` relative to the skill's folder, as `references/FORMS.md`, or an absolute
   * URI) and verifies it. A file the entry does not list is refused before any request; a read whose size or
   * digest differs from the entry's is refused after one fresh attempt (a cached copy may be stale). For a skill
   * whose resources are `"dynamic"` there is nothing to verify against: any file below its folder is read, with
   * `verified: false`.
   */
  async read(skill: Skill, path: string, options?: CallOptions): Promise<SkillFile> {
    const problems = skillEntryProblems(skill);
    const root = skillRootUri(skill.uri);
    if (problems.length > 0 || root === undefined) {
      throw new TypeError(`not a valid skill entry: ${problems.join('; ')}`);
    }
    let uri: string;
    try {
      uri = new URL(path, `${root}/`).href;
    } catch {
      throw new SkillVerificationError('unlisted', path, `${path} is not a URI reference`);
    }
    const listed =
      skill.resources === 'dynamic' ? undefined : skill.resources.find((r) => canonicalUri(r.uri) === uri);
    const isManifest = uri === canonicalUri(skill.uri);
    if (skill.resources === 'dynamic' ? !isManifest && !isWithinSkill(root, uri) : listed === undefined) {
      throw new SkillVerificationError('unlisted', uri, `${uri} is not a file of the skill ${skill.uri}`);
    }
    const target = listed?.uri ?? uri;
    try {
      return await this.#verify(target, listed, await this.#client.readResource(target, options));
    } catch (error) {
      if (!(error instanceof SkillVerificationError)) throw error;
      return this.#verify(
        target,
        listed,
        await this.#client.readResource(target, { ...options, cache: 'reload' }),
      );
    }
  }

  /** The direct children of a skill folder (`resources/directory/read`, every page); folders carry `inode/directory`. */
  async readDirectory(uri: string, options?: CallOptions): Promise<Resource[]> {
    const resources: Resource[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let pages = 0; ; pages++) {
      if (pages === this.#maxPages)
        throw new Error(`${RESOURCES_DIRECTORY_READ} returned more than ${this.#maxPages} pages`);
      const params = cursor === undefined ? { uri } : { uri, cursor };
      const schema = ReadResourceDirectoryResultSchema;
      const result = await this.#client.request(RESOURCES_DIRECTORY_READ, params, {
        ...options,
        result: schema,
      });
      resources.push(...result.resources);
      cursor = result.nextCursor;
      if (cursor === undefined) return resources;
      if (cursors.has(cursor))
        throw new Error(`${RESOURCES_DIRECTORY_READ} repeated the cursor ${JSON.stringify(cursor)}`);
      cursors.add(cursor);
    }
  }

  async #verify(
    uri: string,
    listed: SkillResourceEntry | undefined,
    result: ReadResourceResult,
  ): Promise<SkillFile> {
    const content = result.contents.find((item) => canonicalUri(item.uri) === canonicalUri(uri));
    if (content === undefined)
      throw new SkillVerificationError('content', uri, `resources/read returned no contents for ${uri}`);
    // The client's result schema made each content a text or a blob one; a blob is read only when there is no text.
    const text = typeof content.text === 'string' ? content.text : undefined;
    const blob = typeof content.blob === 'string' ? content.blob : '';
    const limit = listed?.size ?? SKILL_LIMITS.bytes;
    // A text's UTF-8 length is at least its length in UTF-16 units: refuse oversized content before encoding it.
    const length = text?.length ?? (blob.length * 3) / 4;
    if (length > limit + 2) throw this.#sizeError(uri, listed, `at least ${Math.floor(length)}`);
    const bytes = text === undefined ? decodeBase64(uri, blob) : new TextEncoder().encode(text);
    if (listed === undefined ? bytes.byteLength > limit : bytes.byteLength !== limit) {
      throw this.#sizeError(uri, listed, String(bytes.byteLength));
    }
    const digest = listed === undefined ? undefined : await skillDigest(bytes);
    if (listed !== undefined && digest !== listed.digest) {
      throw new SkillVerificationError(
        'digest',
        uri,
        `${uri} has digest ${digest}; the skill entry lists ${listed.digest}`,
      );
    }
    return { uri, mimeType: content.mimeType, bytes, text, verified: listed !== undefined };
  }

  #sizeError(uri: string, listed: SkillResourceEntry | undefined, size: string): SkillVerificationError {
    const expected =
      listed === undefined ? `the limit is ${SKILL_LIMITS.bytes}` : `the skill entry lists ${listed.size}`;
    return new SkillVerificationError('size', uri, `${uri} is ${size} bytes; ${expected}`);
  }

  #frontmatterOf(skill: Skill, manifest: SkillFile): { frontmatter: Record<string, unknown>; body: string } {
    const markdown = manifest.text ?? decodeUtf8Exactly(manifest.bytes);
    if (markdown === undefined)
      throw new SkillVerificationError('frontmatter', manifest.uri, `${manifest.uri} is not UTF-8`);
    let parsed: { frontmatter: Record<string, unknown>; body: string };
    try {
      parsed = parseSkillMarkdown(markdown);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new SkillVerificationError(
        'frontmatter',
        manifest.uri,
        `the frontmatter of ${manifest.uri} cannot be read: ${why}`,
      );
    }
    const found = differences(skill.frontmatter, parsed.frontmatter);
    if (found.length > 0) {
      const message = `the frontmatter of ${manifest.uri} differs from the skill entry: ${found.join('; ')}`;
      throw new SkillVerificationError('frontmatter', manifest.uri, message, found);
    }
    return parsed;
  }
}
