import { describe, expect, it } from 'vitest';
import { loadTemplateLayers, readTemplateDir, templatesDir } from './template-files.js';
import { findTemplate, renderTemplate, TEMPLATES } from './templates.js';

const layers = readTemplateDir(templatesDir);
const values = { name: 'my-app', version: '1.2.3' };

describe('the templates', () => {
  it.each(TEMPLATES.map((t) => [t.name, t] as const))('%s renders a whole project', (_name, template) => {
    const files = renderTemplate(template, layers, values);
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        '.gitignore',
        'README.md',
        'package.json',
        'tsconfig.json',
        'src/greeter.ts',
        'src/greeter.test.ts',
        'src/server.ts',
        'src/client.ts',
      ]),
    );
    expect(Object.keys(files)).not.toContain('_gitignore');
    for (const [path, text] of Object.entries(files)) expect(text, path).not.toMatch(/\{\{\w+\}\}/);
    const manifest = JSON.parse(files['package.json'] ?? '') as {
      name: string;
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(manifest.name).toBe('my-app');
    expect(manifest.scripts).toEqual({
      build: 'tsc',
      dev: 'tsc && node dist/client.js', // generated.test.ts runs the client after npm test's build
      start: 'node dist/server.js',
      test: 'tsc && node --test dist/*.test.js',
    });
    expect(manifest.dependencies['@boomerang/mcp-server']).toBe('^1.2.3');
    expect(manifest.devDependencies['@boomerang/testing']).toBe('^1.2.3');
    expect(files['src/greeter.ts']).toContain("name: 'my-app'");
    const tsconfig = JSON.parse(files['tsconfig.json'] ?? '') as { compilerOptions: Record<string, unknown> };
    expect(tsconfig.compilerOptions).toMatchObject({ types: ['node'], strict: true, target: 'ES2022' });
  });

  it('keeps await using out of the generated code (a SyntaxError on Node 20 once compiled for ES2022+)', () => {
    for (const template of TEMPLATES) {
      for (const text of Object.values(renderTemplate(template, layers, values))) {
        expect(text).not.toMatch(/await using/);
      }
    }
  });

  it('finds a template by name or alias', () => {
    expect(findTemplate('server')?.name).toBe('server');
    expect(findTemplate('stdio')?.name).toBe('server');
    expect(findTemplate('http')?.name).toBe('server-http');
    expect(findTemplate('nope')).toBeUndefined();
  });

  it('fails on a missing layer, naming it', () => {
    const template = { name: 'broken', aliases: [], description: '', layers: ['base', 'missing'] };
    expect(() => renderTemplate(template, layers, values)).toThrow(/layer "missing" is missing/);
  });

  it('loads the templates/ folder in a checkout of the repository', () => {
    expect(loadTemplateLayers()).toEqual(layers);
    expect(Object.keys(layers).sort()).toEqual(['base', 'server', 'server-http']);
  });
});
