// Skill entries, URIs and digests: a valid entry passes; each broken rule is named; no URI spelling climbs out of
// a skill's folder.
import { describe, expect, it } from 'vitest';
import { checkSkill, isSkill, skillEntryProblems } from './entry.js';
import * as skills from './index.js';
import { SKILL_LIMITS, skillDigest } from './skill.js';
import { isWithinSkill, skillFileUri, skillNameOf, skillRootUri } from './uri.js';

const DIGEST = `sha256:${'a'.repeat(64)}`;
const entry = (changes: Record<string, unknown> = {}) => ({
  uri: 'skill://acme/pdf/SKILL.md',
  frontmatter: { name: 'pdf', description: 'Fill PDF forms.' },
  resources: [
    { uri: 'skill://acme/pdf/SKILL.md', digest: DIGEST, size: 10 },
    { uri: 'skill://acme/pdf/references/FORMS.md', digest: DIGEST, size: 0 },
  ],
  ...changes,
});
const file = (uri: string) => ({ uri, digest: DIGEST, size: 1 });
const withFiles = (...uris: string[]) =>
  entry({ resources: [file('skill://acme/pdf/SKILL.md'), ...uris.map(file)] });

describe('skillEntryProblems', () => {
  it('accepts a valid entry, and a "dynamic" one', () => {
    expect(skillEntryProblems(entry())).toEqual([]);
    expect(isSkill(entry({ resources: 'dynamic' }))).toBe(true);
    expect(checkSkill(entry())).toEqual({ ok: true, skill: entry() });
    expect(checkSkill({})).toEqual({ ok: false, problems: ['uri must be a string'] });
    expect(
      isSkill(entry({ frontmatter: { name: 'pdf', description: 'd', metadata: { a: 'b' }, x: [1] } })),
    ).toBe(true);
  });

  const broken: Readonly<Record<string, [unknown, RegExp]>> = {
    'not an object': [[], /must be an object/],
    'a uri not ending in SKILL.md': [entry({ uri: 'skill://acme/pdf/README.md' }), /ending in \/SKILL.md/],
    'a SKILL.md at no folder': [entry({ uri: 'skill:///SKILL.md' }), /below a named folder/],
    'a uri with a query': [entry({ uri: 'skill://acme/pdf/SKILL.md?x' }), /ending in \/SKILL.md/],
    'a name that is not its folder': [
      entry({ frontmatter: { name: 'word', description: 'd' } }),
      /last folder/,
    ],
    'a name breaking the naming rule': [
      entry({ frontmatter: { name: 'PDF--x', description: 'd' } }),
      /lowercase/,
    ],
    'no description': [entry({ frontmatter: { name: 'pdf' } }), /description must be a string/],
    'a 1025-character description': [
      entry({ frontmatter: { name: 'pdf', description: 'é'.repeat(1025) } }),
      /1-1024/,
    ],
    'metadata of non-strings': [
      entry({ frontmatter: { name: 'pdf', description: 'd', metadata: { a: 1 } } }),
      /metadata/,
    ],
    'resources missing': [entry({ resources: undefined }), /array or "dynamic"/],
    'SKILL.md not listed': [
      entry({ resources: [file('skill://acme/pdf/a.md')] }),
      /must list the skill's own/,
    ],
    'a file of another skill': [
      withFiles('skill://acme/other/a.md'),
      /neither the skill's SKILL.md nor a file below/,
    ],
    'a climb with ..': [withFiles('skill://acme/pdf/../other/a.md'), /neither/],
    'an encoded climb': [withFiles('skill://acme/pdf/%2e%2e/other/a.md'), /neither/],
    'an encoded slash': [withFiles('skill://acme/pdf/a%2F..%2F..%2Fb'), /neither/],
    'a fragment': [withFiles('skill://acme/pdf/a.md#x'), /neither/],
    'a file listed twice': [withFiles('skill://acme/pdf/a.md', 'skill://acme/pdf/a.md'), /listed twice/],
    'an uppercase digest': [
      entry({ resources: [{ ...file('skill://acme/pdf/SKILL.md'), digest: DIGEST.toUpperCase() }] }),
      /digest must be/,
    ],
    'a fractional size': [
      entry({ resources: [{ ...file('skill://acme/pdf/SKILL.md'), size: 1.5 }] }),
      /size must be/,
    ],
    'too many files': [
      withFiles(...Array.from({ length: SKILL_LIMITS.files }, (_, i) => `skill://acme/pdf/${i}.md`)),
      /over the limits/,
    ],
    'too many bytes': [
      entry({ resources: [{ ...file('skill://acme/pdf/SKILL.md'), size: SKILL_LIMITS.bytes + 1 }] }),
      /over the limits/,
    ],
  };
  for (const [name, [value, problem]] of Object.entries(broken)) {
    it(`refuses ${name}`, () => {
      expect(skillEntryProblems(value).join('\n')).toMatch(problem);
      expect(isSkill(value)).toBe(false);
    });
  }
});

describe('skill URIs', () => {
  it('finds a skill root and name, in any spelling', () => {
    expect(skillRootUri('skill://acme/pdf/SKILL.md')).toBe('skill://acme/pdf');
    expect(skillRootUri('skill://pdf/SKILL.md')).toBe('skill://pdf');
    expect(skillRootUri('skill://pdf/x/../SKILL.md')).toBe('skill://pdf');
    expect(skillRootUri('not a uri')).toBeUndefined();
    expect(skillNameOf('skill://pdf')).toBe('pdf');
    expect(skillNameOf('skill://acme/my%2Dpdf')).toBe('my-pdf');
  });

  it('keeps files inside their skill', () => {
    expect(isWithinSkill('skill://a/b', 'skill://a/b/c/d.md')).toBe(true);
    for (const outside of [
      'skill://a/b',
      'skill://a/bc/d',
      'skill://a/b/%2E%2E/x',
      'skill://a/b/c%00',
      'skill://a/b/c%5C..',
    ]) {
      expect(isWithinSkill('skill://a/b', outside)).toBe(false);
    }
  });

  it('writes file URIs that survive a round trip, or none', () => {
    expect(skillFileUri('skill://', ['acme', 'pdf', 'Q&A #1.md'])).toBe('skill://acme/pdf/Q%26A%20%231.md');
    expect(skillFileUri('skill://acme', ['a b'])).toBe('skill://acme/a%20b');
    expect(skillFileUri('skill://', ['pdf', '..'])).toBeUndefined();
    expect(skillFileUri('skill://', ['pdf', '\uD800'])).toBeUndefined();
  });
});

describe('skillDigest', () => {
  it('is sha256 of the bytes in lowercase hex (FIPS 180-2 vector "abc")', async () => {
    const digest = await skillDigest(new TextEncoder().encode('abc'));
    expect(digest).toBe('sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('@boomerang/protocol/skills', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(skills).sort()).toEqual([
      'DIRECTORY_MIME_TYPE',
      'FrontmatterError',
      'GetSkillParamsSchema',
      'GetSkillResultSchema',
      'ListSkillsParamsSchema',
      'ListSkillsResultSchema',
      'RESOURCES_DIRECTORY_READ',
      'ReadResourceDirectoryParamsSchema',
      'ReadResourceDirectoryResultSchema',
      'SKILLS_EXTENSION',
      'SKILLS_GET',
      'SKILLS_LIST',
      'SKILL_DIGEST_PATTERN',
      'SKILL_LIMITS',
      'SKILL_MANIFEST',
      'SKILL_NAME_PATTERN',
      'canonicalUri',
      'checkSkill',
      'decodeUtf8Exactly',
      'isSkill',
      'isWithinSkill',
      'parseFrontmatter',
      'parseSkillMarkdown',
      'skillDigest',
      'skillEntryProblems',
      'skillFileUri',
      'skillNameOf',
      'skillRootUri',
    ]);
  });
});
