// @boomerang/protocol/skills: the `io.modelcontextprotocol/skills` extension (SEP-2640) as both sides need it:
// wire constants and shapes, the entry rules, skill URIs, digests and the strict `SKILL.md` frontmatter reader.
// Served by @boomerang/mcp-server (`skillCatalog`, `loadSkills`), consumed by @boomerang/client (`SkillsClient`).

// --- entries
export { checkSkill, isSkill, skillEntryProblems } from './entry.js';
// --- frontmatter
export { FrontmatterError, parseFrontmatter, parseSkillMarkdown, type SkillMarkdown } from './frontmatter.js';
// --- messages
export {
  type GetSkillParams,
  GetSkillParamsSchema,
  type GetSkillResult,
  GetSkillResultSchema,
  type ListSkillsParams,
  ListSkillsParamsSchema,
  type ListSkillsResult,
  ListSkillsResultSchema,
  type ReadResourceDirectoryParams,
  ReadResourceDirectoryParamsSchema,
  type ReadResourceDirectoryResult,
  ReadResourceDirectoryResultSchema,
} from './schema.js';
// --- constants, shapes, digests
export {
  DIRECTORY_MIME_TYPE,
  decodeUtf8Exactly,
  RESOURCES_DIRECTORY_READ,
  SKILL_DIGEST_PATTERN,
  SKILL_LIMITS,
  SKILL_MANIFEST,
  SKILL_NAME_PATTERN,
  SKILLS_EXTENSION,
  SKILLS_GET,
  SKILLS_LIST,
  type Skill,
  type SkillFrontmatter,
  type SkillResourceEntry,
  type SkillsCapability,
  skillDigest,
} from './skill.js';
// --- URIs
export { canonicalUri, isWithinSkill, skillFileUri, skillNameOf, skillRootUri } from './uri.js';
