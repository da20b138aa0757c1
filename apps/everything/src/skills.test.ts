// The everything server's skills (apps/everything/skills) through the web-standard handler and a SkillsClient:
// what the conformance scenarios need is there (the first skill listed has a subfolder), and every file verifies.
import { Client, SkillsClient } from '@boomerang/client';
import { memoryTaskStore } from '@boomerang/tasks';
import { createHttpHandler, StreamableHttpClientTransport } from '@boomerang/transport-http';
import { expect, it } from 'vitest';
import { createEverythingServer, everythingSkills, everythingTasks } from './everything-server.js';

it('serves every fixture skill, each file verified, and the first one has a subfolder', async () => {
  const tasks = everythingTasks(memoryTaskStore());
  const handler = createHttpHandler(
    createEverythingServer({ tasks, skills: await everythingSkills(), logger: {} }),
  );
  const client = new Client({ name: 'skills-test', version: '1.0.0' });
  await client.connect(
    new StreamableHttpClientTransport('http://127.0.0.1/mcp', {
      fetch: (url, init) => handler(new Request(url, init)),
    }),
  );
  try {
    const skills = new SkillsClient(client);
    expect(await skills.supported()).toBe(true);
    const { skills: entries, invalid } = await skills.list();
    expect(invalid).toEqual([]);
    expect(entries.map((skill) => skill.uri)).toEqual([
      'skill://acme/code-review/SKILL.md',
      'skill://pdf-processing/SKILL.md',
    ]);
    for (const skill of entries) {
      expect((await skills.load(skill)).body).toMatch(/^\s*# /);
      for (const file of skill.resources === 'dynamic' ? [] : skill.resources) {
        expect((await skills.read(skill, file.uri)).verified).toBe(true);
      }
    }
    const children = await skills.readDirectory('skill://acme/code-review');
    expect(children).toContainEqual({
      uri: 'skill://acme/code-review/checklists',
      name: 'checklists',
      mimeType: 'inode/directory',
    });
  } finally {
    await client.close();
    await tasks.close();
  }
});
