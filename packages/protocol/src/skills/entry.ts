// The rules a skill entry must follow, checked where entries are made (a server's catalog) and where they arrive
// (a client's listing): SEP-2640's structure plus the Agent Skills field rules.
import { isPlainObject } from '../jsonrpc.js';
import { SKILL_DIGEST_PATTERN, SKILL_LIMITS, SKILL_NAME_PATTERN, type Skill } from './skill.js';
import { canonicalUri, isWithinSkill, skillNameOf, skillRootUri } from './uri.js';

/** Characters (code points, not UTF-16 units) of `text`. */
const characters = (text: string): number => [...text].length;

/** Problems with the frontmatter fields the Agent Skills specification constrains. */
function frontmatterProblems(frontmatter: Record<string, unknown>, root: string): string[] {
  const problems: string[] = [];
  const { name, description, compatibility, metadata } = frontmatter;
  if (typeof name !== 'string' || !SKILL_NAME_PATTERN.test(name)) {
    problems.push(
      `frontmatter name ${JSON.stringify(name)} must be 1-64 lowercase letters, digits and single hyphens`,
    );
  } else if (skillNameOf(root) !== name) {
    problems.push(
      `frontmatter name "${name}" must equal the last folder of the skill's URI ("${skillNameOf(root)}")`,
    );
  }
  if (typeof description !== 'string' || description === '' || characters(description) > 1024) {
    problems.push('frontmatter description must be a string of 1-1024 characters');
  }
  if (compatibility !== undefined && (typeof compatibility !== 'string' || characters(compatibility) > 500)) {
    problems.push('frontmatter compatibility must be a string of at most 500 characters');
  }
  if (
    metadata !== undefined &&
    !(isPlainObject(metadata) && Object.values(metadata).every((v) => typeof v === 'string'))
  ) {
    problems.push('frontmatter metadata must map strings to strings');
  }
  return problems;
}

/** Problems with an entry's `resources` array (it lists every file once, `SKILL.md` included, within limits). */
function resourcesProblems(uri: string, root: string, resources: readonly unknown[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const self = canonicalUri(uri);
  let total = 0;
  for (const [index, resource] of resources.entries()) {
    const where = `resources[${index}]`;
    if (!isPlainObject(resource) || typeof resource.uri !== 'string') {
      problems.push(`${where} must be an object with a string uri`);
      continue;
    }
    const canonical = canonicalUri(resource.uri);
    if (canonical === undefined || (canonical !== self && !isWithinSkill(root, resource.uri))) {
      problems.push(`${where} "${resource.uri}" is neither the skill's SKILL.md nor a file below ${root}/`);
    } else if (seen.has(canonical)) problems.push(`${where} "${resource.uri}" is listed twice`);
    else seen.add(canonical);
    if (typeof resource.digest !== 'string' || !SKILL_DIGEST_PATTERN.test(resource.digest)) {
      problems.push(`${where} digest must be "sha256:" and 64 lowercase hexadecimal digits`);
    }
    const { size } = resource;
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
      problems.push(`${where} size must be a non-negative integer`);
    } else total += size;
  }
  if (self !== undefined && !seen.has(self)) problems.push(`resources must list the skill's own ${uri}`);
  if (resources.length > SKILL_LIMITS.files || total > SKILL_LIMITS.bytes) {
    problems.push(
      `${resources.length} files / ${total} bytes is over the limits of ${SKILL_LIMITS.files} files / ${SKILL_LIMITS.bytes} bytes`,
    );
  }
  return problems;
}

/**
 * Every rule `value` breaks as a skill entry (`[]`: a valid {@link Skill}): `uri` a `…/SKILL.md` URI whose last
 * folder is `frontmatter.name`; `frontmatter` an object with a valid `name` and `description` (and valid
 * `compatibility` / `metadata` when present); `resources` `"dynamic"` or every file once, `SKILL.md` included,
 * each below the skill's folder with a `sha256:` digest and a byte size, within {@link SKILL_LIMITS}.
 */
export function skillEntryProblems(value: unknown): string[] {
  if (!isPlainObject(value)) return ['a skill entry must be an object'];
  const { uri, frontmatter, resources } = value;
  if (typeof uri !== 'string') return ['uri must be a string'];
  const root = skillRootUri(uri);
  if (root === undefined) return [`uri "${uri}" must be a URI ending in /SKILL.md below a named folder`];
  const problems = isPlainObject(frontmatter)
    ? frontmatterProblems(frontmatter, root)
    : ['frontmatter must be an object'];
  if (resources === 'dynamic') return problems;
  if (!Array.isArray(resources)) return [...problems, 'resources must be an array or "dynamic"'];
  if (value._meta !== undefined && !isPlainObject(value._meta)) problems.push('_meta must be an object');
  return [...problems, ...resourcesProblems(uri, root, resources)];
}

/** True when `value` is a valid skill entry (see {@link skillEntryProblems}). */
export function isSkill(value: unknown): value is Skill {
  return skillEntryProblems(value).length === 0;
}

/** `value` checked as a skill entry: the typed entry, or every rule it breaks (see {@link skillEntryProblems}). */
export function checkSkill(value: unknown): { ok: true; skill: Skill } | { ok: false; problems: string[] } {
  const problems = skillEntryProblems(value);
  return problems.length === 0 ? { ok: true, skill: value as Skill } : { ok: false, problems };
}
