import { describe, expect, it } from 'vitest';
import { runDemo } from './demo-main.js';

async function demo(options: Parameters<typeof runDemo>[0]) {
  const lines: string[] = [];
  const result = await runDemo(options, (line) => lines.push(line));
  return { result, lines };
}

describe('the demo (automatic loop, printed round by round)', () => {
  it('prints the call, the question, the callback answer, the retry with the echoed state, the result', async () => {
    const { result, lines } = await demo({});
    expect(result.structuredContent).toMatchObject({ name: 'orders', region: 'eu-west-1' });
    const rounds = lines.filter((l) => /^(→|←| {2}↳)/.test(l));
    expect(rounds).toEqual([
      '→ server/discover', // connect() probes the server's revision (protocol: 'auto')
      '← server/discover: supports 2026-07-28',
      '→ round 1: tools/call provision {"name":"orders"}  (id 2)',
      '← input_required: the server needs something only the client has',
      '  ↳ elicitation callback (round 1, key "region"): accept {"region":"eu-west-1"} (scripted)',
      '→ round 2: tools/call provision {"name":"orders"}  (id 3)',
      expect.stringMatching(/^← complete: Provisioned database 'orders' in eu-west-1 /),
    ]);
    const sent = lines.find((l) => l.endsWith(', sealed: opaque to the client'));
    const echoed = lines.find((l) => l.endsWith(', echoed byte for byte'));
    expect(sent).toMatch(/^ {4}requestState = \S+…\S+ \(\d+ chars\), sealed/);
    expect(sent?.split(', sealed')[0]?.split('= ')[1]).toBe(echoed?.split(', echoed')[0]?.split('= ')[1]);
    expect(lines).toContain('    inputResponses.region = accept {"region":"eu-west-1"}');
  });

  it('follows scripted answers round by round, and declines', async () => {
    const twice = await demo({ name: 'billing', answers: ['mars-1', 'us-west-2'] });
    expect(twice.lines.filter((l) => l.startsWith('→ round'))).toHaveLength(3);
    expect(twice.result.structuredContent).toMatchObject({ region: 'us-west-2' });

    const declined = await demo({ answers: ['decline'] });
    expect(declined.result.isError).toBe(true);
  });

  it('asks through `ask` when interactive, with the choices of the form', async () => {
    const questions: Array<[string, string[]]> = [];
    const { result } = await demo({
      ask: async (message, choices) => {
        questions.push([message, choices.map((c) => c.value)]);
        return 'ap-southeast-2';
      },
    });
    expect(questions).toEqual([
      [
        "Which region should the database 'orders' live in?",
        ['us-east-1', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-southeast-2'],
      ],
    ]);
    expect(result.structuredContent).toMatchObject({ region: 'ap-southeast-2' });
  });

  it('prints full messages with --wire', async () => {
    const { lines } = await demo({ wire: true });
    expect(lines.some((l) => l.startsWith('    >> {"jsonrpc":"2.0"') && l.includes('"tools/call"'))).toBe(
      true,
    );
    expect(lines.some((l) => l.startsWith('    << ') && l.includes('"input_required"'))).toBe(true);
  });
});
