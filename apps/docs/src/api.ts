// The API reference: typedoc reads the doc comments of every public export (through the sources, with the
// `@boomerang/source` condition) and typedoc-plugin-markdown writes one VitePress page per module.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  Application,
  Converter,
  type DeclarationReflection,
  LogLevel,
  type ProjectReflection,
  ReferenceType,
  type Reflection,
  ReflectionKind,
  type TypeDocOptions,
} from 'typedoc';
import type { PluginOptions } from 'typedoc-plugin-markdown';
import { repairAnchors } from './anchors.js';
import { type EntryPoint, publicEntryPoints } from './entry-points.js';
import { filesBelow } from './files.js';
import { apiDir, appDir, cacheDir, repoRoot, siteDir } from './paths.js';

/** What {@link generateApi} did. */
export interface ApiResult {
  /** The modules documented, in sidebar order. */
  readonly entryPoints: readonly EntryPoint[];
  /** `false` when the pages of an identical earlier run were kept. */
  readonly generated: boolean;
}

/** Typedoc problems, with every warning and error typedoc printed. */
export class ApiReferenceError extends Error {
  override readonly name = 'ApiReferenceError';
}

/**
 * Writes the reference into `site/api/` (a page per module, `index.md`, and `typedoc-sidebar.json` for the
 * sidebar). Fails on any typedoc warning or error: an export without a doc comment, a `{@link}` to something
 * undocumented, a type referenced but not exported. Skips the work when the sources, the typedoc versions and
 * this configuration are those of the last run whose pages are still there (typedoc compiles every package:
 * about half a minute).
 */
export async function generateApi(options: { force?: boolean } = {}): Promise<ApiResult> {
  const entryPoints = publicEntryPoints(join(repoRoot, 'packages'));
  const digest = inputDigest(entryPoints);
  const digestFile = join(cacheDir, 'api.digest');
  if (
    options.force !== true &&
    existsSync(join(apiDir, 'typedoc-sidebar.json')) &&
    existsSync(digestFile) &&
    readFileSync(digestFile, 'utf8') === digest
  ) {
    return { entryPoints, generated: false };
  }
  mkdirSync(cacheDir, { recursive: true });
  const tsconfig = join(cacheDir, 'tsconfig.api.json');
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: relative(cacheDir, join(repoRoot, 'tsconfig.base.json')),
      files: entryPoints.map((entry) => relative(cacheDir, entry.file)),
    }),
  );
  rmSync(apiDir, { recursive: true, force: true });

  const problems: string[] = [];
  const app = await Application.bootstrapWithPlugins(typedocOptions(entryPoints, tsconfig));
  // Collect what typedoc reports instead of printing it: the build prints the problems once, together.
  app.logger.log = (message: string, level: LogLevel) => {
    if (level >= LogLevel.Warn) problems.push(`${LogLevel[level]}: ${message}`);
  };
  const names = new Map(entryPoints.map((entry) => [entry.file, entry.specifier]));
  // Modules are named by their package specifier (`@boomerang/seal/node`), found from the entry file each was
  // made from (sources are off, so the reflection itself does not record it).
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (!reflection.kindOf(ReflectionKind.Module)) return;
    const file = context.getSymbolFromReflection(reflection)?.declarations?.[0]?.getSourceFile().fileName;
    const name = names.get(file ?? '');
    if (name !== undefined) reflection.name = name;
  });
  readableZodTypes(app);
  const project = await app.convert();
  if (project === undefined)
    throw new ApiReferenceError(`typedoc could not convert:\n${problems.join('\n')}`);
  app.validate(project);
  if (problems.length === 0) {
    await app.generateOutputs(project);
    repairAnchors(apiDir);
  }
  if (problems.length > 0) {
    rmSync(apiDir, { recursive: true, force: true });
    throw new ApiReferenceError(`typedoc reported ${problems.length} problem(s):\n${problems.join('\n')}`);
  }
  writeFileSync(digestFile, digest);
  return { entryPoints, generated: true };
}

/**
 * `@boomerang/protocol` declares each message as a zod schema and its type as `z.infer<typeof Schema>`. Printed
 * as declared, a schema's type is a page of nested `ZodObject<…>` generics; the reference shows it as
 * `ZodType<TheType>` instead, linked to the type (whose fields are those of the MCP schema of the same name).
 * Expanding the inferred types structurally was tried: zod's inference keeps no alias names, so every nested
 * type prints inline, several kilobytes per message.
 */
function readableZodTypes(app: Application): void {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const variable of context.project.getReflectionsByKind(ReflectionKind.Variable)) {
      const declaration = variable as DeclarationReflection;
      if (declaration.type?.type !== 'reference' || declaration.type.package !== 'zod') continue;
      if (!declaration.name.endsWith('Schema')) continue;
      const zodType = ReferenceType.createBrokenReference('ZodType', context.project, 'zod');
      const alias = declaration.parent?.getChildByName(declaration.name.slice(0, -'Schema'.length));
      if (alias !== undefined) {
        zodType.typeArguments = [ReferenceType.createResolvedReference(alias.name, alias, context.project)];
      }
      declaration.type = zodType;
      removeInlineTypes(context.project, declaration);
    }
  });
}

/**
 * Drops the reflections typedoc made for the inline types of `owner`'s former type (the nested object literals of
 * a zod generic): nothing shows them once the type is `ZodType<…>`, and left in place they would be reported as
 * undocumented members.
 */
function removeInlineTypes(project: ProjectReflection, owner: Reflection): void {
  for (const reflection of Object.values(project.reflections)) {
    if (!reflection.kindOf(ReflectionKind.TypeLiteral)) continue;
    for (let at = reflection.parent; at !== undefined; at = at.parent) {
      if (at === owner) {
        project.removeReflection(reflection);
        break;
      }
    }
  }
}

/** typedoc-vitepress-theme's options (its types are not exported under a stable name). */
interface VitepressThemeOptions {
  readonly docsRoot: string;
  readonly sidebar: { autoConfiguration: boolean; format: 'vitepress'; pretty: boolean; collapsed: boolean };
}

function typedocOptions(
  entryPoints: readonly EntryPoint[],
  tsconfig: string,
): Partial<TypeDocOptions & PluginOptions> & VitepressThemeOptions {
  return {
    entryPoints: entryPoints.map((entry) => entry.file),
    tsconfig,
    plugin: ['typedoc-plugin-markdown', 'typedoc-vitepress-theme'],
    out: apiDir,
    // typedoc-vitepress-theme: links and the sidebar are relative to the VitePress source directory.
    docsRoot: siteDir,
    sidebar: { autoConfiguration: true, format: 'vitepress', pretty: true, collapsed: true },
    name: 'API reference',
    readme: 'none',
    excludeScopesInPaths: true,
    entryFileName: 'index',
    outputFileStrategy: 'modules',
    hidePageHeader: true,
    hideBreadcrumbs: true,
    useCodeBlocks: false,
    parametersFormat: 'table',
    enumMembersFormat: 'table',
    typeAliasPropertiesFormat: 'table',
    typeDeclarationVisibility: 'compact',
    sanitizeComments: true,
    excludePrivate: true,
    excludeInternal: true,
    excludeExternals: true,
    // The repository has no public remote to link sources to.
    disableSources: true,
    skipErrorChecking: true,
    validation: { notExported: true, invalidLink: true, notDocumented: true, rewrittenLink: true },
    // `CacheStore`'s comment links to `cacheKey`, a helper @boomerang/client does not export; the link target is
    // the key format the same comment describes, so it renders as the comment's own text.
    externalSymbolLinkMappings: { '@boomerang/client': { cacheKey: '#' } },
    logLevel: 'Warn',
  };
}

/** A digest of everything the reference depends on: package sources and manifests, typedoc's versions, this file. */
function inputDigest(entryPoints: readonly EntryPoint[]): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(entryPoints));
  const packagesDir = join(repoRoot, 'packages');
  const files = filesBelow(
    packagesDir,
    (file) => /\.(ts|json)$/.test(file) && !/\.(test|examples)\.ts$/.test(file),
  );
  for (const file of files.sort()) {
    hash.update(file);
    hash.update(String(statSync(file).size));
    hash.update(readFileSync(file));
  }
  for (const name of ['typedoc', 'typedoc-plugin-markdown', 'typedoc-vitepress-theme']) {
    hash.update(readFileSync(join(appDir, 'node_modules', name, 'package.json')));
  }
  hash.update(readFileSync(new URL(import.meta.url)));
  return hash.digest('hex');
}
