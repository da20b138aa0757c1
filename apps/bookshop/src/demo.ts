#!/usr/bin/env node
// The bookshop demo. Non-interactive by default (a scripted client prints every round); `--interactive` turns
// each elicitation into a terminal form. See USAGE for the options.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runAuthDemo } from './auth-demo.js';
import { scriptedCallbacks, terminalCallbacks } from './callbacks.js';
import { DEMO_CALLS, runDemo } from './demo-main.js';
import { createPrompter, type LinePrompter } from './prompter.js';

const USAGE = `Usage: node apps/bookshop/dist/demo.js [options]
  --interactive            answer on the terminal: forms, URL prompts (accept / decline / cancel)
  --auth                   OAuth: a protected bookshop, a local authorization server, a browser sign-in
                           (scripted; with --interactive, in your browser), then one order_book
  --refuse decline|cancel  scripted client: refuse every elicitation this way
  --only <tool,tool…>      make only these calls (${[...new Set(DEMO_CALLS.map((c) => c.tool))].join(', ')})
  --port <n>               port of the in-process server (default: a free one)
  --spawn                  run the server as a child process (node dist/server.js) instead of in process
  --url <url>              use a bookshop server that is already running
  --wire                   also print every JSON-RPC message
(--auth serves in process: not with --spawn, --url or --only)`;

interface Cli {
  interactive: boolean;
  auth: boolean;
  spawn: boolean;
  wire: boolean;
  refuse?: 'decline' | 'cancel';
  only?: string[];
  port?: number;
  url?: string;
}

function parse(argv: readonly string[]): Cli | undefined {
  const cli: Cli = { interactive: false, auth: false, spawn: false, wire: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] as string).split('=', 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i] ?? '';
    if (flag === '--interactive') cli.interactive = true;
    else if (flag === '--auth') cli.auth = true;
    else if (flag === '--spawn') cli.spawn = true;
    else if (flag === '--wire') cli.wire = true;
    else if (flag === '--url') cli.url = value();
    else if (flag === '--only') cli.only = value().split(',');
    else if (flag === '--port') {
      const port = Number(value());
      if (!Number.isInteger(port) || port < 0 || port > 65535) return undefined;
      cli.port = port;
    } else if (flag === '--refuse') {
      const refuse = value();
      if (refuse !== 'decline' && refuse !== 'cancel') return undefined;
      cli.refuse = refuse;
    } else return undefined;
  }
  if (cli.auth && (cli.spawn || cli.url !== undefined || cli.only !== undefined)) return undefined;
  return cli;
}

/** Starts `node dist/server.js --port <port>` and resolves to it and the URL it printed on its first line. */
async function spawnServer(port: number): Promise<{ child: ChildProcess; url: string }> {
  const script = fileURLToPath(new URL('./server.js', import.meta.url));
  const child = spawn(process.execPath, [script, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
      const match = /https?:\/\/\S+/.exec(seen);
      if (match) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (code ${code}) before it listened`)));
    child.once('error', reject);
  });
  return { child, url };
}

const cli = parse(process.argv.slice(2));
if (cli === undefined) {
  process.stderr.write(`${USAGE}\n`);
  process.exitCode = 2;
} else {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  let prompter: LinePrompter | undefined;
  let server: ChildProcess | undefined;
  try {
    if (cli.spawn && cli.url === undefined) {
      const spawned = await spawnServer(cli.port ?? 0);
      server = spawned.child;
      cli.url = spawned.url;
    }
    if (cli.interactive) prompter = createPrompter(process.stdin, process.stdout);
    const callbacks = prompter
      ? terminalCallbacks(prompter, process.cwd(), out)
      : scriptedCallbacks({ cwd: process.cwd(), refuse: cli.refuse }, out);
    if (cli.auth) {
      const outcome = await runAuthDemo(
        { callbacks, interactive: cli.interactive, port: cli.port, wire: cli.wire },
        out,
      );
      process.exitCode = outcome.replay === undefined ? 1 : 0; // the state was not shown bound to the user
    } else {
      const calls =
        cli.only === undefined ? DEMO_CALLS : DEMO_CALLS.filter((c) => cli.only?.includes(c.tool));
      const outcomes = await runDemo({ callbacks, calls, url: cli.url, port: cli.port, wire: cli.wire }, out);
      process.exitCode = outcomes.every((o) => 'result' in o) ? 0 : 1;
    }
  } catch (error) {
    process.stderr.write(`demo failed: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  } finally {
    prompter?.close();
    server?.kill('SIGTERM');
  }
}
