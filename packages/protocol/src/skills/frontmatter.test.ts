// The SKILL.md frontmatter reader against a full YAML 1.2 parser (`yaml`, core schema): what it reads it reads the
// same; what it cannot read the same way it refuses, naming the line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { FrontmatterError, parseFrontmatter, parseSkillMarkdown } from './frontmatter.js';

const read = (yaml: string) => parseFrontmatter(yaml);
const reference = (yaml: string): unknown => YAML.parse(yaml, { schema: 'core', uniqueKeys: true }) ?? {};

const ACCEPTED: Readonly<Record<string, string>> = {
  'plain scalars': 'name: pdf-processing\ndescription: Extract text, fill forms. Use for PDFs.\n',
  'typed scalars': 'a: true\nb: False\nc: 42\nd: -1.5e3\ne: ~\nf:\ng: 0x1F\nh: 0o17\ni: .5\nj: 1.0\n',
  'double quotes': 'a: "x: y # not a comment"\nb: "tab\\tnew\\nline \\u00e9 \\x41 \\U0001F600 \\\\ \\""\n',
  'single quotes': "a: 'it''s # still text'\nb: ''\n",
  comments: '# leading\nname: x # trailing\n\n# between\ndescription: y\n',
  'nested mapping': 'metadata:\n  author: acme\n  version: "1.0"\n  deep:\n    deeper: 1\nafter: z\n',
  'block list': 'tags:\n  - one\n  - "two"\n  - 3\n  -\nnext: ok\n',
  'flow lists': 'a: [x, "y", 3, true]\nb: []\nc: [ -1 , z, ]\nd: {}\n',
  'literal block':
    'a: |\n  line one\n\n  line two\n    indented\nb: |-\n  stripped\n\nc: |+\n  kept\n\n\nd: x\n',
  'folded block':
    'a: >\n  folded\n  into one\n\n  paragraph two\n    more indented\n  back\nb: >-\n  x\n  y\n',
  'multi-line plain': 'description: Extract text\n  and tables\n\n  from PDFs\nname: x\n',
  'colons and hashes in plain': 'url: http://example.com/a#b\ntime: 12:30\nkey with spaces: v\n',
  'quoted keys': '"a b": 1\n\'c\': 2\n',
  unicode: 'name: café\ndescription: 日本語 🚀\n',
  empty: '',
};

const REFUSED: Readonly<Record<string, [string, RegExp]>> = {
  anchor: ['a: &x 1\nb: *x\n', /line 1: anchors, aliases and tags/],
  tag: ['a: !!str 1\n', /anchors, aliases and tags/],
  'flow mapping': ['a: {b: 1}\n', /flow mappings are not supported/],
  'duplicate key': ['a: 1\na: 2\n', /line 2: duplicate key "a"/],
  'tab indentation': ['a:\n\tb: 1\n', /line 2: tabs cannot indent/],
  'unclosed quote': ['a: "abc\n  def"\n', /line 1: a quoted value must end on its own line/],
  'mapping in a plain value': ['a: b: c\n', /cannot hold ": "/],
  'list at the key indentation': ['a:\n- x\n', /line 2: a list item where/],
  'proto key': ['__proto__: {}\n', /"__proto__" is not allowed/],
  'complex key': ['? a\n: b\n', /must be a mapping/],
  infinity: ['a: .inf\n', /no exact JSON number/],
  'big integer': ['a: 12345678901234567890\n', /no exact JSON number/],
  'document end': ['a: 1\n...\n', /document markers/],
  'integer key': ['1: one\n', /the key "1" must be a string/],
  'mapping in a list item': ['a:\n  - b: 1\n', /mappings inside list items/],
  'too deep': [
    `${Array.from({ length: 10 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n')}\n${'  '.repeat(10)}x: 1\n`,
    /nesting deeper/,
  ],
  'indentation indicator': ['a: |2\n   x\n', /block scalar headers/],
  'not a mapping': ['- a\n- b\n', /must be a mapping/],
  'scalar document': ['just text\n', /must be a mapping/],
  'bad escape': ['a: "\\q"\n', /unknown escape/],
  'text after a quote': ['a: "x" y\n', /unexpected text after the value/],
  'unexpected indentation': ['a: "1"\n  b: 2\n', /line 2: unexpected indentation/],
  'a key in a continued value': ['a: 1\n  b: 2\n', /line 2: a plain value cannot hold ": "/],
};

describe('parseFrontmatter', () => {
  for (const [name, yaml] of Object.entries(ACCEPTED)) {
    it(`reads ${name} as a YAML 1.2 parser does`, () => {
      expect(read(yaml)).toEqual(reference(yaml));
    });
  }

  for (const [name, [yaml, message]] of Object.entries(REFUSED)) {
    it(`refuses ${name}`, () => {
      expect(() => read(yaml)).toThrow(FrontmatterError);
      expect(() => read(yaml)).toThrow(message);
    });
  }

  it('reads a one-line list of 100 000 items in linear time (a hostile SKILL.md cannot stall a host)', () => {
    const items = Array.from({ length: 100_000 }, (_, i) => (i % 2 === 0 ? 'x' : '"y"'));
    const { tags } = read(`tags: [${items.join(', ')}]\n`) as { tags: string[] };
    expect(tags).toHaveLength(100_000);
    expect(tags.slice(0, 2)).toEqual(['x', 'y']);
  });

  it('never reads a value differently from YAML: it agrees or refuses', () => {
    const scalar = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom(
        'true',
        'null',
        '~',
        '0x1f',
        '1e3',
        '-0',
        '.5',
        'a: b',
        ' #x',
        '"q"',
        "'",
        '- x',
        '[a]',
        '{}',
      ),
      fc.integer(),
      fc.boolean(),
    );
    const value = fc.oneof(
      scalar,
      fc.array(scalar, { maxLength: 3 }),
      fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), scalar, { maxKeys: 3 }),
    );
    const document = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), value, { maxKeys: 4 });
    const style = fc.constantFrom<YAML.ToStringOptions>(
      {},
      { defaultStringType: 'QUOTE_DOUBLE' },
      { defaultStringType: 'BLOCK_LITERAL' },
      { collectionStyle: 'flow' },
    );
    fc.assert(
      fc.property(document, style, (object, options) => {
        const yaml = YAML.stringify(object, options);
        let ours: unknown;
        try {
          ours = read(yaml);
        } catch (error) {
          expect(error).toBeInstanceOf(FrontmatterError);
          return;
        }
        expect(ours).toEqual(reference(yaml));
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseSkillMarkdown', () => {
  it('splits the frontmatter from the body (BOM and CRLF tolerated)', () => {
    const markdown = '\uFEFF---\r\nname: x\r\ndescription: y\r\n---\r\n# Body\r\n';
    expect(parseSkillMarkdown(markdown)).toEqual({
      frontmatter: { name: 'x', description: 'y' },
      body: '# Body\n',
    });
    expect(parseSkillMarkdown('---\nname: x\n---')).toEqual({ frontmatter: { name: 'x' }, body: '' });
  });

  it('refuses a file without frontmatter, or with an unclosed one, naming the file line', () => {
    expect(() => parseSkillMarkdown('# no frontmatter\n')).toThrow(
      'line 1: SKILL.md must begin with a "---" line',
    );
    expect(() => parseSkillMarkdown('---\nname: x\n')).toThrow('no closing "---" line');
    expect(() => parseSkillMarkdown('---\nname: x\nname: y\n---\n')).toThrow('line 3: duplicate key "name"');
  });
});
