import { describe, expect, it } from 'vitest';
import { parseCliArgs, parseRegistry, usage } from './args.js';
import { TEMPLATES } from './templates.js';

describe('parseCliArgs', () => {
  it('reads the folder and every option', () => {
    expect(
      parseCliArgs([
        'app',
        '-t',
        'server-http',
        '--name',
        'tools',
        '--registry',
        'http://x/',
        '-y',
        '--no-install',
      ]),
    ).toEqual({
      dir: 'app',
      template: 'server-http',
      name: 'tools',
      registry: 'http://x/',
      yes: true,
      install: false,
      help: false,
      version: false,
    });
  });

  it('defaults to no folder, installing, asking', () => {
    expect(parseCliArgs([])).toMatchObject({
      dir: undefined,
      template: undefined,
      yes: false,
      install: true,
    });
  });

  it.each([
    [['--bogus'], /Unknown option/],
    [['--template'], /argument missing/],
    [['a', 'b'], /one project folder, got 2/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(message);
  });
});

describe('parseRegistry', () => {
  it('normalises an http(s) URL to end with a slash', () => {
    expect(parseRegistry('http://127.0.0.1:4873')).toEqual({ ok: true, url: 'http://127.0.0.1:4873/' });
    expect(parseRegistry('https://r.example/npm/')).toEqual({ ok: true, url: 'https://r.example/npm/' });
  });

  it.each([
    ['not a url', /expected a URL/],
    ['file:///tmp/registry', /http: or https:/],
  ])('refuses %j', (value, problem) => {
    const parsed = parseRegistry(value);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toMatch(problem);
  });
});

describe('usage', () => {
  it('lists every template and option', () => {
    const text = usage();
    for (const template of TEMPLATES) expect(text).toContain(template.name);
    for (const option of ['--template', '--name', '--registry', '--no-install', '--yes']) {
      expect(text).toContain(option);
    }
  });
});
