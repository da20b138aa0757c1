import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { parseUriTemplate, type TemplateVariables } from './uri-template.js';

describe('parseUriTemplate: match', () => {
  it.each<[string, string, Record<string, string | string[]> | undefined]>([
    ['users://{id}', 'users://ada', { id: 'ada' }],
    ['users://{id}', 'users://', undefined],
    ['users://{id}', 'users://a/b', undefined],
    ['users://{id}', 'users://a,b', { id: 'a,b' }],
    ['users://{id}', 'users://%E2%9C%93', { id: '✓' }],
    ['users://{id}', 'users://%E2%9C', undefined],
    ['x://{a,b}', 'x://1,2', { a: '1', b: '2' }],
    ['x://{a,b}', 'x://1', undefined],
    ['files://{+path}', 'files://a/b/c', { path: 'a/b/c' }],
    ['files://{+path}{?v}', 'files://a/b?v=2', { path: 'a/b', v: '2' }],
    ['x://{list*}', 'x://a,b,c', { list: ['a', 'b', 'c'] }],
    ['x://s{/seg}', 'x://s', {}],
    ['x://s{/seg}', 'x://s/one', { seg: 'one' }],
    ['x://s{/seg}', 'x://s/one/two', undefined],
    ['x://s{/segs*}', 'x://s/one/two', { segs: ['one', 'two'] }],
    ['x://f{.ext}', 'x://f.tar.gz', { ext: 'tar.gz' }],
    ['x://p{;a,b}', 'x://p;b=2;a=1', { a: '1', b: '2' }],
    ['x://q{?a,b}', 'x://q?b=2&a=1&zzz=9', { a: '1', b: '2' }],
    ['x://q{?a}{&b}', 'x://q?a=1&b=2', { a: '1', b: '2' }],
    ['x://q{?tags*}', 'x://q?tags=a&tags=b', { tags: ['a', 'b'] }],
    ['x://q{?a}', 'x://q?a=', { a: '' }],
    ['x://d{#frag}', 'x://d#top', { frag: 'top' }],
    ['x://{id}/posts{?page}', 'x://ada/posts', { id: 'ada' }],
    ['x://{id}/posts{?page}', 'y://ada/posts', undefined],
  ])('%s matches %s → %j', (template, uri, expected) => {
    expect(parseUriTemplate(template).match(uri)).toEqual(expected);
  });

  it('lists its variables', () => {
    expect(parseUriTemplate('x://{a}{/b*}{?c,d:3}').variableNames).toEqual(['a', 'b', 'c', 'd']);
  });

  it.each(['x://{', 'x://}', 'x://{}', 'x://{a b}', 'x://{a:0}', 'x://{a}{a}', 'x://{?}'])(
    'rejects %s',
    (bad) => {
      expect(() => parseUriTemplate(bad)).toThrow(TypeError);
    },
  );
});

describe('parseUriTemplate: expand (RFC 6570 examples)', () => {
  const values = {
    var: 'value',
    hello: 'Hello World!',
    path: '/foo/bar',
    list: ['red', 'green', 'blue'],
    x: '1024',
    y: '768',
  };
  it.each([
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
    ['{+path}/here', '/foo/bar/here'],
    ['{#path,x}/here', '#/foo/bar,1024/here'],
    ['X{.var}', 'X.value'],
    ['{/var,x}/here', '/value/1024/here'],
    ['{;x,y}', ';x=1024;y=768'],
    ['{?x,y}', '?x=1024&y=768'],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{var:3}', 'val'],
    ['{list}', 'red,green,blue'],
    ['{list*}', 'red,green,blue'],
    ['{/list*}', '/red/green/blue'],
    ['{?list*}', '?list=red&list=green&list=blue'],
    ['{?undefined}', ''],
  ])('%s → %s', (template, expected) => {
    expect(parseUriTemplate(template).expand(values)).toBe(expected);
  });

  it('match inverts expand for any string values', () => {
    const template = parseUriTemplate('x://{id}/files{/dir}{?q,page}');
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.option(fc.string(), { nil: undefined }),
        fc.option(fc.string(), { nil: undefined }),
        (id, dir, q) => {
          const uri = template.expand({ id, dir, q });
          const expected: Record<string, string> = { id };
          if (dir !== undefined) expected.dir = dir;
          if (q !== undefined) expected.q = q;
          expect(template.match(uri)).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('TemplateVariables', () => {
  it('types variables from the template literal', () => {
    expectTypeOf<TemplateVariables<'users://{id}/posts{?page,sort}'>>().toEqualTypeOf<{
      id: string;
      page?: string;
      sort?: string;
    }>();
    expectTypeOf<TemplateVariables<'x://{+path}{/segs*}{?n:3}'>>().toEqualTypeOf<{
      path: string;
      segs?: string[];
      n?: string;
    }>();
    expectTypeOf<TemplateVariables<string>>().toEqualTypeOf<Record<string, string | string[] | undefined>>();
  });
});
