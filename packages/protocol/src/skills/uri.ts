// Skill URIs: `skill://<skill-path>/SKILL.md` and the files below `skill://<skill-path>/`. Everything is compared in
// the WHATWG-serialised form (`new URL(uri).href`), so two spellings of one URI are one URI.
import { SKILL_MANIFEST } from './skill.js';

const MANIFEST_SUFFIX = `/${SKILL_MANIFEST}`;

/** The serialised form of `uri`, or `undefined` when it does not parse as an absolute URI. */
export function canonicalUri(uri: string): string | undefined {
  try {
    return new URL(uri).href;
  } catch {
    return undefined;
  }
}

/**
 * The skill's root (`skill://acme/pdf-processing`, no trailing slash) of a `…/SKILL.md` URI, or `undefined` when
 * `uri` does not parse, has a query or fragment, or does not end in `/SKILL.md` below a named folder.
 */
export function skillRootUri(uri: string): string | undefined {
  const canonical = canonicalUri(uri);
  if (canonical === undefined || /[?#]/.test(canonical) || !canonical.endsWith(MANIFEST_SUFFIX))
    return undefined;
  const root = canonical.slice(0, -MANIFEST_SUFFIX.length);
  return root.endsWith('/') || root.endsWith(':') ? undefined : root;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The decoded last segment of a skill root (its host when the path is empty): the skill's name. */
export function skillNameOf(root: string): string | undefined {
  const url = new URL(root);
  const segment =
    url.pathname === '' || url.pathname === '/' ? url.host : root.slice(root.lastIndexOf('/') + 1);
  return decodeSegment(segment);
}

/**
 * True when `uri` names something strictly below `root`: no query or fragment, and no segment below the root that
 * decodes to empty, `.`, `..`, or a name holding `/`, `\` or NUL (so no spelling of it can climb out).
 */
export function isWithinSkill(root: string, uri: string): boolean {
  const canonical = canonicalUri(uri);
  if (canonical === undefined || /[?#]/.test(canonical) || !canonical.startsWith(`${root}/`)) return false;
  return canonical
    .slice(root.length + 1)
    .split('/')
    .every((segment) => {
      const name = decodeSegment(segment);
      return name !== undefined && name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);
    });
}

/**
 * The URI of the file at `path` (`/`-separated names, unencoded) below `base` (`skill://` or a root without a
 * trailing slash), each name percent-encoded; `undefined` when a name has no URI form that survives a round trip
 * through `new URL` (a lone surrogate; `.` or `..`, which WHATWG resolves away; an authority it would rewrite).
 */
export function skillFileUri(base: string, path: readonly string[]): string | undefined {
  let encoded: string[];
  try {
    encoded = path.map((name) => encodeURIComponent(name));
  } catch {
    return undefined;
  }
  const uri = base.endsWith('://') ? base + encoded.join('/') : `${base}/${encoded.join('/')}`;
  return canonicalUri(uri) === uri ? uri : undefined;
}
