// Serving skills (SEP-2640, `io.modelcontextprotocol/skills`) from a McpServer: the extension's methods
// (`skills/list`, `skills/get`, `resources/directory/read`), each skill's SKILL.md as a listed resource, and every
// other file through one `skill://{+path}` template. A read is served only while the stored bytes still match the
// size and digest published for them.
import { ErrorCode, McpError, type Resource } from '@boomerang/protocol';
import {
  canonicalUri,
  decodeUtf8Exactly,
  GetSkillParamsSchema,
  ListSkillsParamsSchema,
  RESOURCES_DIRECTORY_READ,
  ReadResourceDirectoryParamsSchema,
  SKILLS_EXTENSION,
  SKILLS_GET,
  SKILLS_LIST,
  type Skill,
  skillDigest,
  skillFileUri,
} from '@boomerang/protocol/skills';
import type { ServerExtension } from '@boomerang/server';
import type { McpServer } from './mcp-server.js';
import {
  buildCatalog,
  type CatalogFile,
  type CatalogSnapshot,
  resolveLimits,
  type SkillFiles,
  type SkillLimits,
  type SkillProblem,
} from './skills-build.js';

/** Options of {@link skillCatalog} (and of `loadSkills` of `@boomerang/mcp-server/node`). */
export interface SkillCatalogOptions {
  /**
   * `true` (default): any skill with a problem (bad frontmatter, a symbolic link, over the limits, a name that
   * does not match its folder…) fails the build with a `SkillCatalogError` listing every problem. `false`: such
   * skills are left out, and their problems are in `catalog.problems`.
   */
  readonly strict?: boolean;
  /** Bounds on the tree and on each skill (see {@link SkillLimits}). */
  readonly limits?: SkillLimits;
  /** Names put before every skill path: `['acme']` serves `skills/pdf` at `skill://acme/pdf/SKILL.md`. */
  readonly prefix?: readonly string[];
  /** Skills per `skills/list` page and children per `resources/directory/read` page (default 100). */
  readonly pageSize?: number;
  /** `ttlMs` / `cacheScope` of the extension's results (default `0` / `'private'`). */
  readonly cache?: { readonly ttlMs?: number; readonly cacheScope?: 'public' | 'private' };
}

/** A cursor of ours: the URI a page ends after, base64url-encoded. */
function encodeCursor(after: string): string {
  const bytes = new TextEncoder().encode(after);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function decodeCursor(cursor: string): string {
  try {
    const binary = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'));
    const text = decodeUtf8Exactly(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
    if (text?.startsWith('skill://')) return text;
  } catch {
    // not one of ours: below
  }
  throw new McpError(ErrorCode.InvalidParams, 'Invalid params: cursor is not one this server issued');
}

/** One page of `items` (sorted by `uri`) after `cursor`, and the cursor of the next page when there is one. */
function page<T extends { readonly uri: string }>(
  items: readonly T[],
  cursor: string | undefined,
  size: number,
) {
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  let start = after === undefined ? 0 : items.findIndex((item) => item.uri > after);
  if (start === -1) start = items.length;
  const slice = items.slice(start, start + size);
  const last = slice.at(-1);
  return start + size < items.length && last !== undefined
    ? { items: slice, nextCursor: encodeCursor(last.uri) }
    : { items: slice };
}

/**
 * The skills of one storage, ready to serve: pass {@link SkillCatalog.extension} in the server's `extensions`
 * option, then {@link SkillCatalog.register} the server. The catalog holds metadata only; every read goes back
 * to the storage and is served only if the bytes still match what was published (else `-32603`: load again).
 * Made by {@link skillCatalog} and by `loadSkills` of `@boomerang/mcp-server/node`.
 */
export interface SkillCatalog {
  /**
   * The extension to pass in `new McpServer(info, { extensions: [catalog.extension] })`: it declares
   * `io.modelcontextprotocol/skills` (with `directoryRead: true`) and serves `skills/list`, `skills/get` and
   * `resources/directory/read`.
   */
  readonly extension: ServerExtension;
  /** The served skills' entries, sorted by URI; deeply frozen, exactly what clients receive. */
  readonly skills: readonly Skill[];
  /** Problems of the skills left out (only with `strict: false`; a strict build throws them instead). */
  readonly problems: readonly SkillProblem[];
  /**
   * Serves the skills' files on `mcp`: each skill's `SKILL.md` as a listed resource (`name` and `description`
   * from its frontmatter, `text/markdown`) and every other file through the template `skill://{+path}`. Call it
   * once per server, before it serves; the server must also have {@link SkillCatalog.extension} in its
   * `extensions` option. Throws `Error` when called twice for one server.
   */
  register(mcp: McpServer): void;
}

/** The one implementation of {@link SkillCatalog}, over a built snapshot. */
class Catalog implements SkillCatalog {
  readonly #snapshot: CatalogSnapshot;
  readonly #files: SkillFiles;
  readonly #pageSize: number;
  readonly #cache: { ttlMs: number; cacheScope: 'public' | 'private' };
  readonly #registered = new WeakSet<McpServer>();
  readonly extension: ServerExtension;

  constructor(snapshot: CatalogSnapshot, files: SkillFiles, options: SkillCatalogOptions = {}) {
    this.#snapshot = snapshot;
    this.#files = files;
    this.#pageSize = options.pageSize ?? 100;
    this.#cache = { ttlMs: options.cache?.ttlMs ?? 0, cacheScope: options.cache?.cacheScope ?? 'private' };
    this.extension = {
      id: SKILLS_EXTENSION,
      settings: { directoryRead: true },
      methods: {
        [SKILLS_LIST]: {
          params: ListSkillsParamsSchema,
          handler: (params: { cursor?: string | undefined }) => this.#list(params.cursor),
        },
        [SKILLS_GET]: {
          params: GetSkillParamsSchema,
          handler: (params: { uri: string }) => this.#get(params.uri),
        },
        [RESOURCES_DIRECTORY_READ]: {
          params: ReadResourceDirectoryParamsSchema,
          handler: (params: { uri: string; cursor?: string | undefined }) => this.#readDirectory(params),
        },
      },
    };
  }

  get skills(): readonly Skill[] {
    return this.#snapshot.skills.map((entry) => entry.skill);
  }

  get problems(): readonly SkillProblem[] {
    return this.#snapshot.problems;
  }

  register(mcp: McpServer): void {
    if (this.#registered.has(mcp))
      throw new Error('this skills catalog is already registered on this server');
    this.#registered.add(mcp);
    for (const { manifest } of this.#snapshot.skills) {
      const { uri, ...config } = manifest;
      mcp.resource(uri, config, () => this.#read(uri));
    }
    mcp.resourceTemplate(
      'skill://{+path}',
      { name: 'skill-files', description: 'The files of the skills this server serves (SEP-2640).' },
      ({ path }) => {
        const uri = skillFileUri('skill://', path.split('/'));
        return this.#read(uri ?? `skill://${path}`);
      },
    );
  }

  #hints() {
    return { ...this.#cache };
  }

  #list(cursor: string | undefined) {
    const skills = this.#snapshot.skills.map((entry) => entry.skill);
    const { items, nextCursor } = page(skills, cursor, this.#pageSize);
    return { skills: items, ...(nextCursor === undefined ? {} : { nextCursor }), ...this.#hints() };
  }

  #get(uri: string) {
    const found = this.#snapshot.byUri.get(canonicalUri(uri) ?? '');
    if (found === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: no skill is served at ${uri}`, { uri });
    }
    return { skill: found.skill, ...this.#hints() };
  }

  #readDirectory(params: { uri: string; cursor?: string | undefined }) {
    const children = this.#snapshot.dirs.get(canonicalUri(params.uri) ?? '');
    if (children === undefined) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params: ${params.uri} is not a directory resource`,
        {
          uri: params.uri,
        },
      );
    }
    const { items, nextCursor } = page<Resource>(children, params.cursor, this.#pageSize);
    return { resources: items, ...(nextCursor === undefined ? {} : { nextCursor }), ...this.#hints() };
  }

  /** `resources/read` of one served file: the stored bytes, if they still match their size and digest. */
  async #read(uri: string) {
    const canonical = canonicalUri(uri) ?? uri;
    const file = this.#snapshot.files.get(canonical);
    if (file === undefined) {
      const message = this.#snapshot.dirs.has(canonical)
        ? `Resource not found: ${uri} is a directory (use ${RESOURCES_DIRECTORY_READ})`
        : 'Resource not found';
      throw new McpError(ErrorCode.InvalidParams, message, { uri });
    }
    const bytes = await this.#verified(file);
    const text = decodeUtf8Exactly(bytes);
    const content =
      text === undefined
        ? { uri: file.uri, mimeType: file.mimeType, blob: toBase64(bytes) }
        : { uri: file.uri, mimeType: file.mimeType, text };
    return { contents: [content], ...this.#hints() };
  }

  async #verified(file: CatalogFile): Promise<Uint8Array> {
    let bytes: Uint8Array;
    try {
      bytes = await this.#files.read(file.path, file.size);
    } catch (error) {
      throw new Error(`skill file ${file.path} could not be read`, { cause: error });
    }
    if (bytes.byteLength !== file.size || (await skillDigest(bytes)) !== file.digest) {
      throw new Error(`skill file ${file.path} changed since the catalog was built; build it again`);
    }
    return bytes;
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}

/**
 * Builds a {@link SkillCatalog} from any storage: every folder below the adapter's root that holds a `SKILL.md`
 * is a skill, served at `skill://<its path>/SKILL.md`. Hidden entries (`.git`) are skipped; symbolic links and
 * special files are never followed. Throws `SkillCatalogError` (see {@link SkillCatalogOptions.strict}),
 * `RangeError` for bad limits, page size or `cache.ttlMs`, `TypeError` for a bad `prefix` or `cache.cacheScope`.
 *
 * ```ts
 * const catalog = await skillCatalog(memorySkillFiles({ 'greeting/SKILL.md': '---\nname: greeting\n…' }));
 * const mcp = new McpServer({ name: 'skills', version: '1.0.0' }, { extensions: [catalog.extension] });
 * catalog.register(mcp);
 * ```
 */
export async function skillCatalog(
  files: SkillFiles,
  options: SkillCatalogOptions = {},
): Promise<SkillCatalog> {
  const { pageSize, prefix = [], strict = true } = options;
  if (pageSize !== undefined && (!Number.isSafeInteger(pageSize) || pageSize < 1)) {
    throw new RangeError(`"pageSize" expected a positive integer, got ${String(pageSize)}`);
  }
  if (!Array.isArray(prefix) || prefix.some((name) => typeof name !== 'string' || name === '')) {
    throw new TypeError('"prefix" expected an array of non-empty names');
  }
  const { ttlMs = 0, cacheScope = 'private' } = options.cache ?? {};
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 0) {
    throw new RangeError(`"cache.ttlMs" expected a non-negative integer, got ${String(ttlMs)}`);
  }
  if (cacheScope !== 'public' && cacheScope !== 'private') {
    throw new TypeError(`"cache.cacheScope" expected "public" or "private", got ${String(cacheScope)}`);
  }
  const snapshot = await buildCatalog(files, { limits: resolveLimits(options.limits), prefix, strict });
  return new Catalog(snapshot, files, options);
}

/**
 * An in-memory {@link SkillFiles}: paths (`pdf/SKILL.md`, `pdf/references/FORMS.md`) to contents. For tests and
 * for skills generated at start-up.
 */
export function memorySkillFiles(record: Readonly<Record<string, string | Uint8Array>>): SkillFiles {
  const files = new Map<string, Uint8Array>();
  for (const [path, content] of Object.entries(record)) {
    files.set(path, typeof content === 'string' ? new TextEncoder().encode(content) : content);
  }
  return {
    async list(dir) {
      const prefix = dir === '' ? '' : `${dir}/`;
      const entries = new Map<string, { name: string; kind: 'file' | 'directory'; size?: number }>();
      for (const [path, bytes] of files) {
        if (!path.startsWith(prefix)) continue;
        const [name, ...below] = path.slice(prefix.length).split('/') as [string, ...string[]];
        entries.set(
          name,
          below.length > 0 ? { name, kind: 'directory' } : { name, kind: 'file', size: bytes.length },
        );
      }
      if (dir !== '' && entries.size === 0) throw new Error(`no folder ${dir}`);
      return [...entries.values()];
    },
    async read(path, maxBytes) {
      const bytes = files.get(path);
      if (bytes === undefined) throw new Error(`no file ${path}`);
      if (bytes.length > maxBytes) throw new RangeError(`${path} is over ${maxBytes} bytes`);
      return bytes;
    },
  };
}
