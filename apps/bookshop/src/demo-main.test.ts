import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { memoryTaskStore } from '@boomerang/tasks';
import { listen } from '@boomerang/transport-http/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createBookshopServer } from './bookshop.js';
import { scriptedCallbacks, terminalCallbacks } from './callbacks.js';
import { DEMO_CALLS, type DemoOptions, runDemo } from './demo-main.js';
import { createPrompter } from './prompter.js';

async function run(options: Omit<DemoOptions, 'callbacks'> & Partial<Pick<DemoOptions, 'callbacks'>> = {}) {
  const lines: string[] = [];
  const out = (line: string) => lines.push(line);
  const callbacks = options.callbacks ?? scriptedCallbacks({ cwd: '/tmp/shop' }, out);
  // The demo program keeps print_run's tasks in PGlite; here an in-memory store and a fast press will do.
  const outcomes = await runDemo(
    { taskStore: memoryTaskStore(), printBatchMs: 1, ...options, callbacks },
    out,
  );
  return { lines, outcomes };
}

/** The lines of the rounds (requests, results, questions, answers, state), with the sealed tokens masked. */
function rounds(lines: readonly string[]): string[] {
  return lines
    .filter((line) =>
      /^(==|=>|→ round|← (input_required|complete|error)| {2}↳| {4}(question|answer|state|replied))/.test(
        line,
      ),
    )
    .map((line) => line.replace(/sl1_\S+…\S+ \((\d+) chars\)/, '<state>'));
}

const only = (...tools: string[]) => DEMO_CALLS.filter((call) => tools.includes(call.tool));

describe('the scripted demo over Streamable HTTP', () => {
  it('prints every round of every tool and ends with each final result', async () => {
    const { lines, outcomes } = await run();
    expect(outcomes.map((o) => ('result' in o ? o.result.isError === true : 'rejected'))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(lines[0]).toMatch(
      /^Boomerang bookshop demo: an McpServer over Streamable HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp \(in process\)\.$/,
    );
    const solaris = rounds(
      lines.slice(lines.findIndex((l) => l.startsWith('== order_book {"title":"Solaris"}'))),
    );
    expect(solaris.slice(0, solaris.findIndex((l) => l.startsWith('=>')) + 1)).toEqual([
      '== order_book {"title":"Solaris"}: out of stock: backorder + gift in round 1, shipping (depends on the backorder) in round 2',
      '→ round 1: tools/call order_book {"title":"Solaris"}',
      '← input_required',
      expect.stringMatching(
        /^ {4}question [\w.-]+ = elicitation\/create \(form\): "Solaris" is out of stock\. Backorder it\? {2}\{confirm: boolean, notify: array\?, maxPrice: number\?\}$/,
      ),
      expect.stringMatching(
        /^ {4}question [\w.-]+ = elicitation\/create \(form\): Is it a gift\? {2}\{wrap: boolean\?, note: string\?\}$/,
      ),
      '    state    none', // nothing recorded yet: nothing sealed
      expect.stringMatching(
        /^ {2}↳ scripted [\w.-]+: "Solaris" is out of stock\. Backorder it\? → accept \{"confirm":true,"notify":\["email","sms"\]\}$/,
      ),
      expect.stringMatching(
        /^ {2}↳ scripted [\w.-]+: Is it a gift\? → accept \{"wrap":true,"note":"Happy birthday!"\}$/,
      ),
      '→ round 2: tools/call order_book {"title":"Solaris"}',
      expect.stringMatching(/^ {4}answer {3}[\w.-]+ = accept \{"confirm":true,"notify":\["email","sms"\]\}$/),
      expect.stringMatching(/^ {4}answer {3}[\w.-]+ = accept \{"wrap":true,"note":"Happy birthday!"\}$/),
      '← input_required',
      expect.stringMatching(
        /^ {4}question [\w.-]+ = elicitation\/create \(form\): How should "Solaris" ship\? {2}\{shipping: string\?, copies: integer\?, binding: string\?\}$/,
      ),
      '    state    <state>, sealed: opaque to the client',
      expect.stringMatching(
        /^ {2}↳ scripted [\w.-]+: How should "Solaris" ship\? → accept \{"shipping":"express","copies":2,"binding":"hardcover"\}$/,
      ),
      '→ round 3: tools/call order_book {"title":"Solaris"}',
      expect.stringMatching(
        /^ {4}answer {3}[\w.-]+ = accept \{"shipping":"express","copies":2,"binding":"hardcover"\}$/,
      ),
      '    state    <state>, echoed byte for byte',
      '← complete: Ordered 2 × "Solaris" (hardcover) on backorder, gift-wrapped with a card: "Happy birthday!": express shipping, arriving in 23 days, EUR 34.00; we will tell you by email and sms.',
      '=> Ordered 2 × "Solaris" (hardcover) on backorder, gift-wrapped with a card: "Happy birthday!": express shipping, arriving in 23 days, EUR 34.00; we will tell you by email and sms.',
    ]);
    // The other tools, by their final lines.
    expect(lines.filter((l) => l.startsWith('=> '))).toEqual([
      '=> "Dune" by Frank Herbert: 3 in stock, EUR 12.50.',
      '=> Ordered 2 × "Dune" (hardcover), gift-wrapped with a card: "Happy birthday!": express shipping, arriving in 2 days, EUR 31.00.',
      expect.stringContaining('=> Ordered 2 × "Solaris"'),
      `=> Shelf-talker for "Neuromancer" (fake-llm-1): "Neuromancer": the book our staff keep pressing into strangers' hands.`,
      '=> Wishlist of 2 title(s) would be written to file:///tmp/shop/wishlist.md (the first of 1 root(s), "shop").',
      '=> Signed in as alice. Past orders: "Dune" (2024-03-02), "Neuromancer" (2025-11-19).',
      '=> Printed 40 copies of "Dune" on matte paper.',
    ]);
  });

  it('runs print_run as a task: created at once, asked mid-task, answered by tasks/update, completed', async () => {
    const { lines, outcomes } = await run({ calls: only('print_run') });
    expect(outcomes).toMatchObject([
      { result: { content: [{ text: 'Printed 40 copies of "Dune" on matte paper.' }] } },
    ]);
    const from = lines.findIndex((l) => l.startsWith('== print_run'));
    const steps = lines.slice(from + 1).filter((l) => !l.startsWith('← tasks/get') || !l.includes('Printed'));
    expect(steps).toEqual([
      '→ tools/call print_run {"title":"Dune","copies":40}, declaring io.modelcontextprotocol/tasks',
      expect.stringMatching(/^← task [0-9a-f]{6}…[0-9a-f]{4}: working; polling tasks\/get every 200 ms$/),
      expect.stringMatching(
        /^← tasks\/get \S+: input_required: The proof of "Dune" is ready\. Print 40 copies\?$/,
      ),
      expect.stringMatching(
        /^ {4}question 1\.[\w.-]+ = elicitation\/create \(form\): The proof of "Dune" is ready\. Print 40 copies\? {2}\{confirm: boolean, paper: string\?\}$/,
      ),
      expect.stringMatching(
        /^ {2}↳ scripted 1\.[\w.-]+: The proof of "Dune" is ready\. Print 40 copies\? → accept \{"confirm":true,"paper":"matte"\}$/,
      ),
      expect.stringMatching(/^→ tasks\/update \S+ \{1\.[\w.-]+\}$/),
      expect.stringMatching(/^← tasks\/get \S+: completed$/),
      '=> Printed 40 copies of "Dune" on matte paper.',
    ]);
  });

  it('prints the state of each round: none until answers must be carried, then sealed with its size', async () => {
    const { lines } = await run({ calls: only('order_book').slice(1) });
    const states = lines.filter((l) => l.startsWith('    state    ') && !l.endsWith('echoed byte for byte'));
    expect(states).toEqual(['    state    none', expect.stringMatching(/sealed: opaque to the client$/)]);
    expect(Number(/\((\d+) chars\)/.exec(states[1] as string)?.[1])).toBeGreaterThan(200);
  });

  it('shows the sampling request, the fake LLM and its reply, and the roots', async () => {
    const { lines } = await run({ calls: only('write_blurb', 'export_wishlist') });
    expect(rounds(lines)).toEqual([
      expect.stringMatching(/^== write_blurb/),
      '→ round 1: tools/call write_blurb {"title":"Neuromancer"}',
      '← input_required',
      expect.stringMatching(
        /question [\w.-]+ = sampling\/createMessage: Write a one-line blurb for "Neuromancer" by William Gibson\. \(maxTokens 60\)$/,
      ),
      '    state    none',
      expect.stringMatching(
        /^ {2}↳ fake LLM [\w.-]+: asked: Write a one-line blurb for "Neuromancer" by William Gibson\.$/,
      ),
      `    replied (fake-llm-1): "Neuromancer": the book our staff keep pressing into strangers' hands.`,
      '→ round 2: tools/call write_blurb {"title":"Neuromancer"}',
      expect.stringMatching(/answer {3}[\w.-]+ = assistant \(fake-llm-1\): "Neuromancer": the book/),
      expect.stringMatching(/^← complete: Shelf-talker/),
      expect.stringMatching(/^=> Shelf-talker/),
      expect.stringMatching(/^== export_wishlist/),
      '→ round 1: tools/call export_wishlist {"titles":["Solaris","The Left Hand of Darkness"]}',
      '← input_required',
      expect.stringMatching(/question [\w.-]+ = roots\/list$/),
      '    state    none',
      expect.stringMatching(/^ {2}↳ roots [\w.-]+: file:\/\/\/tmp\/shop\/$/),
      '→ round 2: tools/call export_wishlist {"titles":["Solaris","The Left Hand of Darkness"]}',
      expect.stringMatching(/answer {3}[\w.-]+ = roots \[file:\/\/\/tmp\/shop\/\]$/),
      expect.stringMatching(/^← complete: Wishlist/),
      expect.stringMatching(/^=> Wishlist/),
    ]);
  });

  it.each([
    ['decline', 'declined'],
    ['cancel', 'cancelled'],
  ] as const)('--refuse %s: every asking tool ends with an isError result', async (refuse, word) => {
    const lines: string[] = [];
    const out = (line: string) => lines.push(line);
    const outcomes = await runDemo(
      {
        callbacks: scriptedCallbacks({ cwd: '/tmp/shop', refuse }, out),
        calls: only('order_book', 'order_history'),
        taskStore: memoryTaskStore(),
      },
      out,
    );
    expect(outcomes.map((o) => 'result' in o && o.result.isError === true)).toEqual([true, true, true]);
    expect(lines.filter((l) => l.startsWith('=> '))).toEqual([
      `=> isError: Resolver for 'delivery.shipping' could not resolve: elicitation was ${word}`,
      `=> isError: Resolver for 'backorder' could not resolve: elicitation was ${word}`,
      `=> isError: Resolver for 'signedIn' could not resolve: elicitation was ${word}`,
    ]);
    expect(lines.some((l) => l.includes(`→ ${refuse}`))).toBe(true);
  });

  it('a scripted user who agrees to open the URL but never signs in gets no orders', async () => {
    const lines: string[] = [];
    const out = (line: string) => lines.push(line);
    const callbacks = scriptedCallbacks({ cwd: '/tmp/shop', signInAs: null }, out);
    const [outcome] = await runDemo({ callbacks, calls: only('order_history') }, out);
    expect(outcome && 'result' in outcome && outcome.result.isError).toBe(true);
    expect(lines.at(-1)).toMatch(
      /^=> isError: Not signed in: the sign-in at http:\/\/127\.0\.0\.1:\d+\/sign-in/,
    );
  });

  it('stops the server it started', async () => {
    const { lines } = await run({ calls: only('check_stock') });
    const url = /at (http:\S+) \(in process\)/.exec(lines[0] as string)?.[1] as string;
    await expect(fetch(url, { method: 'POST' })).rejects.toThrow();
  });

  it('--wire prints every JSON-RPC message', async () => {
    const { lines } = await run({ calls: only('check_stock'), wire: true });
    expect(lines.filter((l) => l.startsWith('    >> ')).length).toBeGreaterThanOrEqual(2);
    expect(lines.some((l) => l.startsWith('    << ') && l.includes('"resultType":"complete"'))).toBe(true);
  });
});

describe('the interactive demo (terminal forms over a fake input stream)', () => {
  it('renders each form, takes typed answers and defaults, and shows decline and cancel', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const prompter = createPrompter(input, output);
    const lines: string[] = [];
    const out = (line: string) => lines.push(line);
    // order_book Solaris: round 1 backorder form (accept: yes, notify 2, no ceiling) and gift form (decline);
    // round 2 shipping form (pickup, 3 copies, default binding). order_history: cancel the URL.
    input.end(
      ['a', 'yes', '2', '', 'd', 'a', '3', '3', '']
        .concat('c')
        .map((l) => `${l}\n`)
        .join(''),
    );
    try {
      const outcomes = await runDemo(
        {
          callbacks: terminalCallbacks(prompter, '/tmp/shop', out),
          calls: [only('order_book')[1], only('order_history')[0]].filter((c) => c !== undefined),
          taskStore: memoryTaskStore(),
        },
        out,
      );
      expect(lines.filter((l) => l.startsWith('=> '))).toEqual([
        '=> Ordered 3 × "Solaris" (paperback) on backorder: ready for pickup, arriving in 22 days, EUR 42.00; we will tell you by sms.',
        "=> isError: Resolver for 'signedIn' could not resolve: elicitation was cancelled",
      ]);
      expect(outcomes).toHaveLength(2);
    } finally {
      prompter.close();
    }
    expect(lines).toContain('  ┌ "Solaris" is out of stock. Backorder it?');
    expect(lines).toContain('  │     1) Standard (free, 5 days)  [standard]');
    expect(lines).toContain('  │ Copies (copies)  [integer, 1–5]');
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}│ open: http:\/\/127\.0\.0\.1:\d+\/sign-in\?ticket=[\w-]+$/),
    );
    expect(lines.some((l) => /answer {3}[\w.-]+ = decline$/.test(l))).toBe(true);
  });
});

describe('a bookshop server that is already running (--url)', () => {
  it('talks to a server started with listen()', async () => {
    const endpoint = await listen(createBookshopServer(), { port: 0, host: '127.0.0.1' });
    try {
      const { lines } = await run({ url: endpoint.url, calls: only('check_stock') });
      expect(lines[0]).toBe(
        `Boomerang bookshop demo: an McpServer over Streamable HTTP at ${endpoint.url.href}.`,
      );
      expect(lines).toContain('=> "Dune" by Frank Herbert: 3 in stock, EUR 12.50.');
    } finally {
      await endpoint.close();
    }
  });

  const serverJs = fileURLToPath(new URL('../dist/server.js', import.meta.url));
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGTERM');
    child = undefined;
  });

  it.skipIf(!existsSync(serverJs))('talks to node dist/server.js (built app)', async () => {
    child = spawn(process.execPath, [serverJs, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string>((resolve, reject) => {
      child?.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        const match = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(chunk);
        if (match) resolve(match[0]);
      });
      child?.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    const { outcomes } = await run({ url, calls: only('order_book').slice(0, 1) });
    expect(outcomes[0]).toMatchObject({
      result: { content: [{ text: expect.stringMatching(/^Ordered 2 × "Dune"/) }] },
    });
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    await expect(exited).resolves.toBe(0);
  });
});
