// Examples quoted in README.md, the client's README.md and the Skills guide: they typecheck with the package and
// run in skills.examples.test.ts.
// #region serve
import { McpServer } from '@boomerang/mcp-server';
import { loadSkills } from '@boomerang/mcp-server/node';

// Every folder holding a SKILL.md is a skill: skills/pdf-processing/ → skill://pdf-processing/SKILL.md.
// Symbolic links, oversized skills and bad frontmatter are refused here, at start-up, naming the file.
const skills = await loadSkills(new URL('./test-support/skills/', import.meta.url));

export const docs = new McpServer({ name: 'docs', version: '1.0.0' }, { extensions: [skills.extension] });
skills.register(docs); // each SKILL.md a listed resource; every file readable, checked against its digest

// #endregion serve

// #region host
import { Client, SkillsClient } from '@boomerang/client';
import { connectInMemory } from '@boomerang/transport-memory';

export async function useThePdfSkill(): Promise<string> {
  const client = new Client({ name: 'host', version: '1.0.0' });
  await using _link = await connectInMemory(client, docs);
  const skills = new SkillsClient(client);
  const { skills: entries } = await skills.list(); // names, descriptions, digests: no file read yet
  const pdf = entries.find((skill) => skill.frontmatter.name === 'pdf-processing');
  if (pdf === undefined) throw new Error('the server has no pdf-processing skill');
  const { body } = await skills.load(pdf); // SKILL.md, its size, digest and frontmatter verified
  const forms = await skills.read(pdf, 'references/FORMS.md'); // on demand, verified too
  return `${body.split('\n')[0]} (+ ${forms.bytes.byteLength} bytes of FORMS.md)`;
}
// #endregion host
