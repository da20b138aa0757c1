// Child process of cold-start.bench.mjs, `node cold-child.mjs <what>`: what a host or a user starts, answering the
// first line it reads on stdin, then exiting when stdin ends.
//   echo            — node alone: echoes the line;
//   import:<spec>   — `await import(spec)` first (`@boomerang/mcp-server`, `zod/v4`, `@boomerang/client`), then
//                     echoes the line;
//   zod-tool        — a Boomerang stdio server with one zod tool (McpServer, `z.object({ n: z.number() })`,
//                     state sealed by default): the line is its first `tools/call`, answered `plain <n>`.
// Each writes the CPU time it used to stderr as it exits (`cold-child cpu <µs>`).
import { writeSync } from 'node:fs';
import process from 'node:process';

// The CPU time this process used (user + system, µs), written to stderr as it exits: less sensitive than the wall
// time to other load on the machine.
process.once('exit', () => {
  const { user, system } = process.cpuUsage();
  writeSync(2, `cold-child cpu ${user + system}\n`);
});

const what = process.argv[2] ?? 'echo';
if (what === 'zod-tool') {
  const [{ McpServer }, { StdioServerTransport }, { z }] = await Promise.all([
    import('@boomerang/mcp-server'),
    import('@boomerang/transport-stdio'),
    import('zod/v4'),
  ]);
  const mcp = new McpServer({ name: 'cold', version: '1.0.0' });
  mcp.tool('plain', { input: z.object({ n: z.number() }) }, ({ n }) => ({
    content: [{ type: 'text', text: `plain ${n}` }],
  }));
  await mcp.connect(new StdioServerTransport());
} else {
  if (what.startsWith('import:')) await import(what.slice('import:'.length));
  process.stdin.once('data', (line) => process.stdout.write(line));
}
