// The stdio side of the transport bench: each SDK's own client and its own stdio client transport, spawning
// `stdio-server.mjs` for that SDK. Each setup returns `{ call, close, pid }` like the flow bench's sessions.
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { answer } from '../flows/workload.mjs';

/** The stdio server script, and the node flags its processes get (e.g. `--cpu-prof`). */
export const STDIO_SERVER = fileURLToPath(new URL('./stdio-server.mjs', import.meta.url));

export async function setupBoomerangStdio(nodeFlags = []) {
  const [{ Client }, { StdioClientTransport }] = await Promise.all([
    import('@boomerang/client'),
    import('@boomerang/transport-stdio'),
  ]);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeFlags, STDIO_SERVER, 'boomerang'],
    cwd: process.cwd(),
  });
  const client = new Client(
    { name: 'bench-client', version: '1.0.0' },
    { elicitation: async (params) => answer(params), inputRequiredMaxRounds: 10 },
  );
  await client.connect(transport);
  return {
    pid: transport.pid,
    call: (name, n) => client.callTool(name, { n }),
    close: () => client.close(),
  };
}

export async function setupOfficialStdio(nodeFlags = []) {
  const [{ Client }, { StdioClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/client'),
    import('@modelcontextprotocol/client/stdio'),
  ]);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeFlags, STDIO_SERVER, 'official'],
    cwd: process.cwd(),
  });
  const client = new Client(
    { name: 'bench-client', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { maxRounds: 10 },
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => answer(request.params));
  await client.connect(transport);
  return {
    pid: transport.pid,
    call: (name, n) => client.callTool({ name, arguments: { n } }),
    close: () => client.close(),
  };
}
