import { describe, expect, it } from 'vitest';
import { runDemo } from './demo-main.js';

async function run(options: Parameters<typeof runDemo>[0]) {
  const lines: string[] = [];
  const outcomes = await runDemo(options, (line) => lines.push(line));
  return { lines, outcomes, text: lines.join('\n') };
}

describe('the briefing demo', () => {
  it('prints every round of both prompts, scripted', async () => {
    const { lines, outcomes } = await run({});
    expect(outcomes.map((o) => ('result' in o ? o.prompt : `${o.prompt}: error`))).toEqual([
      'briefing',
      'briefing_by_hand',
    ]);
    const rounds = lines.filter((line) => /^(→|←| {2}↳| {4}(question|answer|state))/.test(line));
    expect(rounds.map((line) => line.replace(/sl1_\S+…\S+ \(\d+ chars\)/, '<state>'))).toEqual([
      '→ server/discover', // connect() probes the server's revision (protocol: 'auto')
      '← ok',
      '→ round 1: prompts/get briefing {"topic":"the third-quarter results"}',
      '← input_required',
      expect.stringMatching(
        /^ {4}question \S+ = elicitation\/create \(form\): Who is the briefing for\? {2}\{audience: string\}$/,
      ),
      '    state    none',
      '  ↳ elicitation callback (round 1): accept {"audience":"the board"} (scripted)',
      '→ round 2: prompts/get briefing {"topic":"the third-quarter results"}',
      expect.stringMatching(/^ {4}answer {3}r0\.\S{22} = accept \{"audience":"the board"\}$/),
      '← complete: 1 prompt message(s)',
      '→ round 1: prompts/get briefing_by_hand {"topic":"the third-quarter results"}',
      '← input_required',
      '    question audience = elicitation/create (form): Who is the briefing for?  {audience: string}',
      '    state    none',
      '  ↳ elicitation callback (round 1): accept {"audience":"the board"} (scripted)',
      '→ round 2: prompts/get briefing_by_hand {"topic":"the third-quarter results"}',
      '    answer   audience = accept {"audience":"the board"}',
      '← complete: 1 prompt message(s)',
    ]);
    expect(lines.filter((line) => line.startsWith('  user: '))).toEqual([
      '  user: Write a briefing about the third-quarter results for the board.',
      '  user: Write a briefing about the third-quarter results for the board.',
    ]);
  });

  it('uses the answer a person typed (--interactive)', async () => {
    const questions: string[] = [];
    const { text, outcomes } = await run({
      prompts: ['briefing'],
      topic: '',
      ask: async (message) => {
        questions.push(message);
        return 'the night shift';
      },
    });
    expect(questions).toEqual(['Who is the briefing for?']);
    expect(text).toContain('accept {"audience":"the night shift"} (typed)');
    expect(text).toContain('  user: Write a briefing for the night shift.');
    expect(outcomes).toHaveLength(1);
  });

  it('reports a declined question as a rejected prompts/get', async () => {
    const { lines, outcomes } = await run({ prompts: ['briefing'], audience: 'decline' });
    expect(outcomes[0]).toMatchObject({ prompt: 'briefing', error: expect.any(Error) });
    expect(lines).toContain('  ↳ elicitation callback (round 1): decline (scripted)');
    expect(lines.some((line) => line.startsWith('← error -32602: '))).toBe(true);
    expect(lines.some((line) => line.startsWith('rejected: ') && line.includes('declined'))).toBe(true);
  });
});
