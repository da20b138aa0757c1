import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
} from '@boomerang/protocol/schemas';
import { describe, expect, it } from 'vitest';
import { accept, assistantMessage, cancel, decline, roots } from './answers.js';

describe('answers', () => {
  it('accept, decline and cancel are elicitation results', () => {
    expect(accept({ confirm: true, tags: ['a'] })).toEqual({
      action: 'accept',
      content: { confirm: true, tags: ['a'] },
    });
    expect(accept()).toEqual({ action: 'accept' });
    expect(decline()).toEqual({ action: 'decline' });
    expect(cancel()).toEqual({ action: 'cancel' });
    for (const answer of [accept({ n: 1 }), accept(), decline(), cancel()]) {
      expect(ElicitResultSchema.safeParse(answer).success).toBe(true);
    }
  });

  it('accept rejects content that is no object of fields', () => {
    for (const bad of [null, [], 'yes', 1]) {
      expect(() => accept(bad as never)).toThrow(TypeError);
    }
    expect(() => accept([] as never)).toThrow('"content" expected an object of form fields, got array');
  });

  it('assistantMessage is a sampling result, with a default model and stop reason', () => {
    const answer = assistantMessage('Hello');
    expect(answer).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Hello' },
      model: 'test-model',
      stopReason: 'endTurn',
    });
    expect(CreateMessageResultSchema.safeParse(answer).success).toBe(true);
    expect(assistantMessage('Hi', { model: 'm', stopReason: 'maxTokens' })).toMatchObject({
      model: 'm',
      stopReason: 'maxTokens',
    });
    expect(() => assistantMessage(42 as never)).toThrow('"text" expected a string, got number');
  });

  it('roots takes URIs or full roots', () => {
    const answer = roots('file:///repo', { uri: 'file:///docs', name: 'Docs' });
    expect(answer).toEqual({ roots: [{ uri: 'file:///repo' }, { uri: 'file:///docs', name: 'Docs' }] });
    expect(ListRootsResultSchema.safeParse(answer).success).toBe(true);
    expect(roots()).toEqual({ roots: [] });
    expect(() => roots('file:///a', { name: 'no uri' } as never)).toThrow(
      '"roots[1]" expected a URI string or a { uri, name? } root, got object',
    );
  });
});
