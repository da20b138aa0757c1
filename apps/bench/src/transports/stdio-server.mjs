// Child process of the transport bench: serves the workload over stdio for one SDK, `node stdio-server.mjs
// boomerang|official` — what a host launches. Exits when stdin ends. Imports only the server side of each SDK,
// so the cold-start figure is that of a real stdio server of the workload.
import process from 'node:process';

if (process.argv[2] === 'boomerang') {
  const [{ createBoomerangServer }, { StdioServerTransport }] = await Promise.all([
    import('../flows/boomerang-server.mjs'),
    import('@boomerang/transport-stdio'),
  ]);
  await createBoomerangServer().connect(new StdioServerTransport());
} else {
  const [{ buildServer, createCodec }, { serveStdio }] = await Promise.all([
    import('../flows/official-server.mjs'),
    import('@modelcontextprotocol/server/stdio'),
  ]);
  const codec = createCodec();
  serveStdio(() => buildServer(codec), {
    legacy: 'reject',
    onerror: (error) => console.error('official server error:', error),
  });
}
