// Skills served by a McpServer (SEP-2640), on the wire: the capability, the three methods, SKILL.md resources and
// the file template; every bad request gets its JSON-RPC error and the server keeps serving.
import { skillDigest } from '@boomerang/protocol/skills';
import { describe, expect, it } from 'vitest';
import { McpServer } from './mcp-server.js';
import { memorySkillFiles, skillCatalog } from './skills.js';
import { SkillCatalogError, type SkillFiles } from './skills-build.js';
import { errorOf, recordingLogger, request, resultOf } from './test-support/wire.js';

const PDF = '---\nname: pdf\ndescription: Fill PDF forms.\nmetadata:\n  version: "2"\n---\n# PDF\n';
const REVIEW = '---\nname: review\ndescription: >\n  Review code\n  carefully.\n---\nBody\n';
const FILES = {
  'pdf/SKILL.md': PDF,
  'pdf/references/FORMS.md': '# Forms\n',
  'pdf/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff]),
  'acme/review/SKILL.md': REVIEW,
  'acme/review/notes/a.md': 'a',
  '.git/config': 'hidden, never served',
};

async function serve(files: SkillFiles = memorySkillFiles(FILES), options = {}) {
  const catalog = await skillCatalog(files, options);
  const logger = recordingLogger();
  const mcp = new McpServer(
    { name: 'skills', version: '1.0.0' },
    { extensions: [catalog.extension], logger },
  );
  catalog.register(mcp);
  const call = (method: string, params: Record<string, unknown> = {}) => mcp.handle(request(method, params));
  return { catalog, mcp, call, logger };
}

describe('a skills catalog on a McpServer', () => {
  it('declares the extension with directoryRead, and resources', async () => {
    const { call } = await serve();
    const { capabilities } = resultOf(await call('server/discover')) as {
      capabilities: Record<string, unknown>;
    };
    expect(capabilities.extensions).toEqual({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
    expect(capabilities.resources).toBeDefined();
  });

  it('lists every skill with its files, sizes and digests, sorted by URI, with cache hints', async () => {
    const { call } = await serve();
    const result = resultOf(await call('skills/list'));
    expect(result).toMatchObject({ ttlMs: 0, cacheScope: 'private', resultType: 'complete' });
    expect(result.nextCursor).toBeUndefined();
    const skills = result.skills as { uri: string; frontmatter: unknown; resources: unknown[] }[];
    expect(skills.map((skill) => skill.uri)).toEqual([
      'skill://acme/review/SKILL.md',
      'skill://pdf/SKILL.md',
    ]);
    expect(skills[0]?.frontmatter).toEqual({ name: 'review', description: 'Review code carefully.\n' });
    expect(skills[1]).toEqual({
      uri: 'skill://pdf/SKILL.md',
      frontmatter: { name: 'pdf', description: 'Fill PDF forms.', metadata: { version: '2' } },
      resources: [
        {
          uri: 'skill://pdf/SKILL.md',
          size: PDF.length,
          digest: await skillDigest(new TextEncoder().encode(PDF)),
        },
        { uri: 'skill://pdf/logo.png', size: 5, digest: await skillDigest(FILES['pdf/logo.png']) },
        {
          uri: 'skill://pdf/references/FORMS.md',
          size: 8,
          digest: await skillDigest(new TextEncoder().encode('# Forms\n')),
        },
      ],
    });
  });

  it('pages skills whole, and answers -32602 for a cursor it never issued', async () => {
    const { call } = await serve(undefined, { pageSize: 1 });
    const first = resultOf(await call('skills/list'));
    expect((first.skills as unknown[]).length).toBe(1);
    const second = resultOf(await call('skills/list', { cursor: first.nextCursor }));
    expect(second.skills).toMatchObject([{ uri: 'skill://pdf/SKILL.md' }]);
    expect(second.nextCursor).toBeUndefined();
    // `eA` is base64url of "x": decodable, but no cursor of ours.
    for (const cursor of ['forged', 'eA', '!!!', '']) {
      expect(errorOf(await call('skills/list', { cursor }))).toMatchObject({ code: -32602 });
    }
    expect(errorOf(await call('skills/list', { cursor: 7 })).code).toBe(-32602);
    expect(resultOf(await call('skills/list')).skills).toHaveLength(1);
  });

  it('gets one skill by any spelling of its URI; an unknown one is -32602', async () => {
    const { call } = await serve();
    expect(resultOf(await call('skills/get', { uri: 'skill://pdf/x/../SKILL.md' }))).toMatchObject({
      skill: { uri: 'skill://pdf/SKILL.md' },
      ttlMs: 0,
      cacheScope: 'private',
    });
    for (const uri of ['skill://nope/SKILL.md', 'skill://pdf/references/FORMS.md', 'not a uri', '']) {
      expect(errorOf(await call('skills/get', { uri }))).toMatchObject({ code: -32602 });
    }
    expect(errorOf(await call('skills/get', {})).code).toBe(-32602);
  });

  it('lists each SKILL.md as a resource named after its frontmatter, and reads every file', async () => {
    const { call } = await serve();
    const { resources } = resultOf(await call('resources/list')) as { resources: unknown[] };
    expect(resources).toContainEqual({
      uri: 'skill://pdf/SKILL.md',
      name: 'pdf',
      description: 'Fill PDF forms.',
      mimeType: 'text/markdown',
      size: PDF.length,
    });
    expect(resultOf(await call('resources/read', { uri: 'skill://pdf/SKILL.md' })).contents).toEqual([
      { uri: 'skill://pdf/SKILL.md', mimeType: 'text/markdown', text: PDF },
    ]);
    expect(
      resultOf(await call('resources/read', { uri: 'skill://pdf/references/FORMS.md' })).contents,
    ).toEqual([{ uri: 'skill://pdf/references/FORMS.md', mimeType: 'text/markdown', text: '# Forms\n' }]);
    expect(resultOf(await call('resources/read', { uri: 'skill://pdf/logo.png' })).contents).toEqual([
      { uri: 'skill://pdf/logo.png', mimeType: 'image/png', blob: 'iVBOR/8=' },
    ]);
  });

  it('serves nothing outside its files: climbs, hidden files, folders and strangers are -32602', async () => {
    const { call } = await serve();
    const uris = [
      'skill://pdf/../.git/config',
      'skill://pdf/%2e%2e/.git/config',
      'skill://pdf%2F..%2F.git/config',
      'skill://.git/config',
      'skill://pdf/references',
      'skill://pdf/nope.md',
      'skill://pdf/SKILL.md?x=1',
    ];
    for (const uri of uris) {
      expect(errorOf(await call('resources/read', { uri })), uri).toMatchObject({ code: -32602 });
    }
    expect(errorOf(await call('resources/read', { uri: 'skill://pdf/references' })).message).toContain(
      'resources/directory/read',
    );
  });

  it('reads a folder: files with sizes, subfolders as inode/directory, paged; a file is -32602', async () => {
    const { call } = await serve(undefined, { pageSize: 2 });
    const first = resultOf(await call('resources/directory/read', { uri: 'skill://pdf' }));
    expect(first.resources).toEqual([
      { uri: 'skill://pdf/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown', size: PDF.length },
      { uri: 'skill://pdf/logo.png', name: 'logo.png', mimeType: 'image/png', size: 5 },
    ]);
    const rest = resultOf(
      await call('resources/directory/read', { uri: 'skill://pdf', cursor: first.nextCursor }),
    );
    expect(rest.resources).toEqual([
      { uri: 'skill://pdf/references', name: 'references', mimeType: 'inode/directory' },
    ]);
    for (const uri of ['skill://pdf/SKILL.md', 'skill://acme', 'skill://.git', 'skill://pdf/../acme', 'x']) {
      expect(errorOf(await call('resources/directory/read', { uri })), uri).toMatchObject({ code: -32602 });
    }
  });

  it('refuses a file changed since the build (-32603), and goes on serving', async () => {
    const files = memorySkillFiles(FILES);
    let swapped: string | undefined;
    const tampered: SkillFiles = {
      list: (path) => files.list(path),
      read: async (path, max) =>
        swapped !== undefined && path === 'pdf/references/FORMS.md'
          ? new TextEncoder().encode(swapped)
          : files.read(path, max),
    };
    const { call, logger } = await serve(tampered);
    swapped = '# Evil!\n';
    expect(errorOf(await call('resources/read', { uri: 'skill://pdf/references/FORMS.md' })).code).toBe(
      -32603,
    );
    swapped = '# Forms, much longer\n';
    expect(errorOf(await call('resources/read', { uri: 'skill://pdf/references/FORMS.md' })).code).toBe(
      -32603,
    );
    expect(resultOf(await call('resources/read', { uri: 'skill://pdf/SKILL.md' })).contents).toHaveLength(1);
    expect(logger.lines.map((line) => line.error)).toEqual([
      'skill file pdf/references/FORMS.md changed since the catalog was built; build it again',
      'skill file pdf/references/FORMS.md changed since the catalog was built; build it again',
    ]);
  });

  it('is registered once per server', async () => {
    const { catalog, mcp } = await serve();
    expect(() => catalog.register(mcp)).toThrow('already registered');
  });
});

describe('building a catalog', () => {
  const build = (files: Record<string, string | Uint8Array>, options = {}) =>
    skillCatalog(memorySkillFiles(files), options);
  const problemsOf = async (files: Record<string, string | Uint8Array>) => {
    const error = await build(files).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(SkillCatalogError);
    return (error as SkillCatalogError).problems;
  };

  it('names every bad skill with its path and the reason, strictly by default', async () => {
    const problems = await problemsOf({
      'a/SKILL.md': '---\nname: a\ndescription: ok\nname: again\n---\n',
      'b/SKILL.md': '---\nname: not-b\ndescription: d\n---\n',
      'c/SKILL.md': 'no frontmatter',
      'd/SKILL.md': new Uint8Array([0xff, 0xfe]),
      'SKILL.md': '---\nname: root\ndescription: d\n---\n',
      'ok/SKILL.md': '---\nname: ok\ndescription: fine\n---\n',
    });
    expect(problems).toEqual([
      { path: 'a/SKILL.md', message: 'frontmatter: line 4: duplicate key "name"' },
      { path: 'b/SKILL.md', message: expect.stringContaining('must equal the last folder') },
      { path: 'c/SKILL.md', message: 'frontmatter: line 1: SKILL.md must begin with a "---" line' },
      { path: 'd/SKILL.md', message: 'is not valid UTF-8' },
      { path: 'SKILL.md', message: expect.stringContaining('is at the root') },
    ]);
  });

  it('leaves bad skills out with strict: false, and keeps their problems', async () => {
    const catalog = await build(
      {
        'b/SKILL.md': '---\nname: x\ndescription: d\n---\n',
        'ok/SKILL.md': '---\nname: ok\ndescription: d\n---\n',
      },
      { strict: false },
    );
    expect(catalog.skills.map((skill) => skill.uri)).toEqual(['skill://ok/SKILL.md']);
    expect(catalog.problems).toHaveLength(1);
    expect(Object.isFrozen(catalog.skills[0]?.resources)).toBe(true);
  });

  it('refuses an oversized skill without reading it', async () => {
    const reads: string[] = [];
    const files = memorySkillFiles({
      'big/SKILL.md': '---\nname: big\ndescription: d\n---\n',
      'big/blob.bin': new Uint8Array(64),
    });
    const counting: SkillFiles = {
      list: (path) => files.list(path),
      read: (path, max) => {
        reads.push(path);
        return files.read(path, max);
      },
    };
    const error = await skillCatalog(counting, { limits: { bytes: 60 } }).catch((thrown: unknown) => thrown);
    expect((error as SkillCatalogError).problems).toEqual([
      { path: 'big', message: expect.stringContaining('over the limits of 512 files / 60 bytes') },
    ]);
    expect(reads).toEqual([]);
    await expect(skillCatalog(counting, { limits: { files: 1 } })).rejects.toThrow('2 files');
  });

  it('bounds the walk (entries, depth) and checks its options', async () => {
    const wide = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`w/f${i}.md`, 'x']));
    await expect(build(wide, { limits: { entries: 10 } })).rejects.toThrow('holds more than 10 entries');
    await expect(build({ 'a/b/c/d/e.md': 'x' }, { limits: { depth: 2 } })).rejects.toThrow(
      'nested more than 2 folders',
    );
    await expect(build({}, { limits: { files: 0 } })).rejects.toThrow(RangeError);
    await expect(build({}, { pageSize: 1.5 })).rejects.toThrow(RangeError);
    await expect(build({}, { prefix: [''] })).rejects.toThrow(TypeError);
    await expect(build({}, { cache: { ttlMs: -1 } })).rejects.toThrow(RangeError);
    await expect(build({}, { cache: { cacheScope: 'shared' as 'public' } })).rejects.toThrow(TypeError);
  });

  it('serves under a prefix', async () => {
    const catalog = await build(
      { 'pdf/SKILL.md': '---\nname: pdf\ndescription: d\n---\n' },
      { prefix: ['acme'] },
    );
    expect(catalog.skills.map((skill) => skill.uri)).toEqual(['skill://acme/pdf/SKILL.md']);
  });
});
