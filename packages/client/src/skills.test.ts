// The Skills host side against a scripted (and at times malicious) server: listings are checked entry by entry,
// nothing is read before it is asked for, and forged content never comes back.
import { McpError } from '@boomerang/protocol';
import {
  type Skill,
  type SkillFrontmatter,
  type SkillResourceEntry,
  skillDigest,
} from '@boomerang/protocol/skills';
import { describe, expect, it } from 'vitest';
import { SkillsClient, SkillVerificationError } from './skills.js';
import { cacheable, harness, type ReceivedRequest } from './test-support/fake-server.js';

const encode = (text: string) => new TextEncoder().encode(text);
const MANIFEST = '---\nname: pdf\ndescription: Fill PDF forms.\ntags: [a, b]\n---\n# PDF\n';
const FORMS = '# Forms\n';
const SKILL_URI = 'skill://pdf/SKILL.md';
const FORMS_URI = 'skill://pdf/references/FORMS.md';

/** The entry of a skill whose files are `files`, the first one its SKILL.md. */
async function entryFor(files: Record<string, string>, frontmatter: SkillFrontmatter): Promise<Skill> {
  const resources = await Promise.all(
    Object.entries(files).map(async ([uri, text]) => ({
      uri,
      size: encode(text).length,
      digest: await skillDigest(encode(text)),
    })),
  );
  return { uri: resources[0]?.uri ?? SKILL_URI, frontmatter, resources };
}

const FRONTMATTER = { name: 'pdf', description: 'Fill PDF forms.', tags: ['a', 'b'] };
const published = () => entryFor({ [SKILL_URI]: MANIFEST, [FORMS_URI]: FORMS }, FRONTMATTER);

/** A skills server: `listing` pages by cursor, `served` is what `resources/read` returns per URI. */
function skillsServer(pages: unknown[][], served: Record<string, unknown>) {
  return (request: ReceivedRequest) => {
    switch (request.method) {
      case 'server/discover':
        return cacheable({
          supportedVersions: ['2026-07-28'],
          capabilities: { resources: {}, extensions: { 'io.modelcontextprotocol/skills': {} } },
        });
      case 'skills/list': {
        const at = request.params.cursor === undefined ? 0 : Number(request.params.cursor);
        const nextCursor = at + 1 < pages.length ? { nextCursor: String(at + 1) } : {};
        return cacheable({ skills: pages[at], ...nextCursor });
      }
      case 'skills/get':
        return cacheable({
          skill:
            pages.flat().find((entry) => (entry as { uri: string }).uri === request.params.uri) ??
            pages[0]?.[0],
        });
      case 'resources/read': {
        const content = served[request.params.uri];
        return cacheable({ contents: content === undefined ? [] : [content] });
      }
      default:
        throw new McpError(-32601, 'Method not found');
    }
  };
}

const text = (uri: string, value: string) => ({ uri, mimeType: 'text/markdown', text: value });
const reads = (requests: readonly ReceivedRequest[]) =>
  requests.filter((r) => r.method === 'resources/read').map((r) => r.params.uri);

describe('SkillsClient.list', () => {
  it('walks every page, reads no file, and refuses invalid or repeated entries by index', async () => {
    const good = await published();
    const other = { ...(await entryFor({ 'skill://b/SKILL.md': 'x' }, { name: 'b', description: 'B' })) };
    const outside = {
      ...other,
      resources: [
        ...(other.resources as SkillResourceEntry[]),
        { uri: 'skill://c/x.md', digest: `sha256:${'0'.repeat(64)}`, size: 1 },
      ],
    };
    const renamed = await entryFor({ 'skill://c/SKILL.md': 'x' }, { name: 'other', description: 'd' });
    await using h = await harness(
      skillsServer(
        [
          [good, other],
          [outside, renamed],
          ['junk', other],
        ],
        {},
      ),
    );
    const skills = new SkillsClient(h.client);
    expect(await skills.supported()).toBe(true);
    const listing = await skills.list();
    expect(listing.skills).toEqual([good]);
    expect(listing.invalid.map((entry) => [entry.index, entry.problems.join('; ')])).toEqual([
      [1, 'another entry has the same uri'],
      [2, expect.stringMatching(/skill:\/\/c\/x.md" is neither.*same uri/)],
      [3, expect.stringContaining('must equal the last folder')],
      [4, 'a skill entry must be an object'],
      [5, 'another entry has the same uri'],
    ]);
    expect(reads(h.server.requests)).toEqual([]);
  });

  it('gives up on a server that pages forever or repeats a cursor', async () => {
    const good = await published();
    await using endless = await harness((request) =>
      cacheable({ skills: [good], nextCursor: `${Number(request.params.cursor ?? 0) + 1}` }),
    );
    await expect(new SkillsClient(endless.client, { maxPages: 3 }).list()).rejects.toThrow(
      'more than 3 pages',
    );
    expect(endless.server.requests).toHaveLength(3);
    await using looping = await harness(() => cacheable({ skills: [], nextCursor: 'same' }));
    await expect(new SkillsClient(looping.client).list()).rejects.toThrow('repeated the cursor "same"');
    expect(() => new SkillsClient(looping.client, { maxPages: 0 })).toThrow(RangeError);
  });
});

describe('SkillsClient.load and read', () => {
  it('loads a verified skill, then reads its files on demand', async () => {
    const skill = await published();
    await using h = await harness(
      skillsServer([[skill]], {
        [SKILL_URI]: text(SKILL_URI, MANIFEST),
        [FORMS_URI]: text(FORMS_URI, FORMS),
      }),
    );
    const skills = new SkillsClient(h.client);
    const loaded = await skills.load(skill);
    expect(loaded).toMatchObject({
      frontmatter: FRONTMATTER,
      body: '# PDF\n',
      manifest: { uri: SKILL_URI, verified: true, text: MANIFEST },
    });
    expect(reads(h.server.requests)).toEqual([SKILL_URI]);
    const forms = await skills.read(skill, 'references/FORMS.md');
    expect(new TextDecoder().decode(forms.bytes)).toBe(FORMS);
    expect((await skills.read(skill, FORMS_URI)).verified).toBe(true);
  });

  const forgeries: Readonly<Record<string, [string, unknown, string]>> = {
    'a forged body of the same size (digest)': [
      'digest',
      text(SKILL_URI, MANIFEST.replace('# PDF', '# EVL')),
      'has digest sha256:',
    ],
    'extra bytes (size)': ['size', text(SKILL_URI, `${MANIFEST}more`), 'bytes; the skill entry lists'],
    'a huge text (size, before hashing)': [
      'size',
      text(SKILL_URI, 'x'.repeat(1_000_000)),
      'at least 1000000 bytes',
    ],
    'a forged blob': ['digest', { uri: SKILL_URI, blob: btoa(MANIFEST.replace('PDF', 'pdf')) }, 'has digest'],
    'a blob that is not base64': ['content', { uri: SKILL_URI, blob: '%%%' }, 'not base64'],
    'contents for another URI': [
      'content',
      text('skill://pdf/OTHER.md', MANIFEST),
      'no contents for skill://pdf/SKILL.md',
    ],
  };
  for (const [name, [reason, content, message]] of Object.entries(forgeries)) {
    it(`refuses ${name}, after one fresh attempt, and reads nothing more`, async () => {
      const skill = await published();
      await using h = await harness(
        skillsServer([[skill]], { [SKILL_URI]: content, [FORMS_URI]: text(FORMS_URI, FORMS) }),
      );
      const error = await new SkillsClient(h.client).load(skill).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(SkillVerificationError);
      expect(error).toMatchObject({ reason, uri: SKILL_URI, message: expect.stringContaining(message) });
      expect(reads(h.server.requests)).toEqual([SKILL_URI, SKILL_URI]);
    });
  }

  it('lets the client refuse contents that are neither text nor blob (an invalid result)', async () => {
    const skill = await published();
    await using h = await harness(skillsServer([[skill]], { [SKILL_URI]: { uri: SKILL_URI } }));
    await expect(new SkillsClient(h.client).load(skill)).rejects.toMatchObject({ reason: 'invalid-result' });
  });

  it('refuses a SKILL.md whose frontmatter differs from the entry, naming each field', async () => {
    const forged = MANIFEST.replace('Fill PDF forms.', 'Exfiltrate credentials').replace('[a, b]', '[a]');
    const skill = await entryFor({ [SKILL_URI]: forged }, FRONTMATTER);
    await using h = await harness(skillsServer([[skill]], { [SKILL_URI]: text(SKILL_URI, forged) }));
    const error = (await new SkillsClient(h.client)
      .load(skill)
      .catch((thrown: unknown) => thrown)) as SkillVerificationError;
    expect(error.reason).toBe('frontmatter');
    expect(error.differences).toEqual([
      'description: the entry has "Fill PDF forms.", SKILL.md has "Exfiltrate credentials"',
      'tags: 2 items in the entry, 1 in SKILL.md',
    ]);
    const unreadable = '---\nname: pdf\n  bad: indent\n---\n';
    const broken = await entryFor({ [SKILL_URI]: unreadable }, FRONTMATTER);
    await using h2 = await harness(skillsServer([[broken]], { [SKILL_URI]: text(SKILL_URI, unreadable) }));
    await expect(new SkillsClient(h2.client).load(broken)).rejects.toThrow('cannot be read: line 3');
  });

  it('requests nothing for a file the entry does not list, however it is spelled', async () => {
    const skill = await published();
    await using h = await harness(skillsServer([[skill]], {}));
    const skills = new SkillsClient(h.client);
    for (const path of [
      '../other/SKILL.md',
      'references/NOPE.md',
      '%2e%2e/x',
      'skill://other/SKILL.md',
      'http://evil/x',
    ]) {
      await expect(skills.read(skill, path)).rejects.toMatchObject({ reason: 'unlisted' });
    }
    await expect(skills.read({ ...skill, uri: 'skill://x/README.md' }, 'SKILL.md')).rejects.toThrow(
      TypeError,
    );
    expect(h.server.requests).toEqual([]);
  });

  it('reads a "dynamic" skill unverified, but still checks its frontmatter', async () => {
    const skill = { uri: SKILL_URI, frontmatter: FRONTMATTER, resources: 'dynamic' as const };
    await using h = await harness(
      skillsServer([[skill]], {
        [SKILL_URI]: text(SKILL_URI, MANIFEST),
        [FORMS_URI]: text(FORMS_URI, FORMS),
      }),
    );
    const skills = new SkillsClient(h.client);
    expect((await skills.load(skill)).manifest.verified).toBe(false);
    expect((await skills.read(skill, 'references/FORMS.md')).verified).toBe(false);
    await expect(skills.read(skill, 'skill://other/x.md')).rejects.toMatchObject({ reason: 'unlisted' });
    await expect(skills.read(skill, '../../escape.md')).rejects.toMatchObject({ reason: 'content' });
    expect(reads(h.server.requests).at(-1)).toBe('skill://pdf/escape.md');
  });
});

describe('SkillsClient.get and readDirectory', () => {
  it('gets a valid entry, and refuses an invalid one or another skill', async () => {
    const skill = await published();
    await using h = await harness(skillsServer([[skill, { ...skill, uri: 'skill://x/SKILL.md' }]], {}));
    const skills = new SkillsClient(h.client);
    expect(await skills.get(SKILL_URI)).toEqual(skill);
    await expect(skills.get('skill://x/SKILL.md')).rejects.toThrow('invalid entry');
    await expect(skills.get('skill://nope/SKILL.md')).rejects.toThrow('returned skill://pdf/SKILL.md');
  });

  it('walks the pages of a folder', async () => {
    const child = (name: string) => ({ uri: `skill://pdf/${name}`, name });
    await using h = await harness((request) =>
      request.params.cursor === undefined
        ? cacheable({ resources: [child('SKILL.md')], nextCursor: 'next' })
        : cacheable({ resources: [{ ...child('references'), mimeType: 'inode/directory' }] }),
    );
    const children = await new SkillsClient(h.client).readDirectory('skill://pdf');
    expect(children.map((resource) => resource.name)).toEqual(['SKILL.md', 'references']);
  });
});
