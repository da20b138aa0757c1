// The client scenarios of the Skills extension (SEP-2640): a host that lists skills without reading any file, and
// one that loads a skill on demand and reads its other files only once SKILL.md verified.
import { type Client, SkillsClient, SkillVerificationError } from '@boomerang/client';
import type { Skill } from '@boomerang/protocol/skills';

/** What a scenario uses of its input (structurally the `ScenarioInput` of client-scenarios.ts). */
interface SkillsInput {
  readonly client: Client;
  readonly log: (line: string) => void;
}

/** Lists the server's skills (after checking it declares the extension) and reads nothing. */
async function listOnly({
  client,
  log,
}: SkillsInput): Promise<{ skills: SkillsClient; entries: readonly Skill[] }> {
  const skills = new SkillsClient(client);
  if (!(await skills.supported()))
    throw new Error('the server does not declare io.modelcontextprotocol/skills');
  const { skills: entries, invalid } = await skills.list();
  log(`skills: ${entries.map((skill) => skill.frontmatter.name).join(', ')} (${invalid.length} refused)`);
  return { skills, entries };
}

/** `sep-2640-client-no-prefetch`: a listing opens no file; nothing is needed yet, so nothing is read. */
async function noPrefetch(input: SkillsInput): Promise<void> {
  await listOnly(input);
}

/**
 * `sep-2640-client-verify-*`: the skill is needed, so its SKILL.md is read and verified (size, digest,
 * frontmatter); only a skill that verified is loaded, and only then are its other files read. A refusal is the
 * expected outcome when the server forged content: logged, and the scenario ends normally.
 */
async function loadOnDemand(input: SkillsInput): Promise<void> {
  const { skills, entries } = await listOnly(input);
  const skill = entries[0];
  if (skill === undefined) return;
  try {
    const loaded = await skills.load(skill);
    input.log(`loaded ${skill.uri} (${loaded.body.length} characters of instructions)`);
  } catch (error) {
    if (!(error instanceof SkillVerificationError)) throw error;
    input.log(`refused ${error.uri} (${error.reason}): ${error.message}`);
    return;
  }
  for (const file of skill.resources === 'dynamic' ? [] : skill.resources) {
    if (file.uri === skill.uri) continue;
    const read = await skills.read(skill, file.uri);
    input.log(`read ${read.uri}: ${read.bytes.byteLength} bytes, verified`);
  }
}

/** The Skills client scenarios, by the name the referee passes in `MCP_CONFORMANCE_SCENARIO`. */
export const skillsScenarios: Readonly<Record<string, (input: SkillsInput) => Promise<void>>> = {
  'sep-2640-client-no-prefetch': noPrefetch,
  'sep-2640-client-verify-digest': loadOnDemand,
  'sep-2640-client-verify-size': loadOnDemand,
  'sep-2640-client-verify-frontmatter': loadOnDemand,
};
