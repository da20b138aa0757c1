// Short ways to write the answers a test scripts: what a user, a model or the host would have answered.
import type { CreateMessageResult, ElicitResult, ListRootsResult, Root } from '@boomerang/protocol';
import { argumentError } from '@boomerang/protocol';

/** The content of an accepted form: field name → string, number, boolean or list of strings. */
export type ElicitContent = NonNullable<ElicitResult['content']>;

/**
 * The user accepted an elicitation: `{ action: 'accept', content }` for a form, `{ action: 'accept' }` for a URL
 * elicitation (which carries no content). The server validates the content against its schema, so a test can
 * also script a wrong answer and check the error.
 */
export function accept(content?: ElicitContent): ElicitResult {
  if (content === undefined) return { action: 'accept' };
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    throw argumentError('content', 'an object of form fields', content);
  }
  return { action: 'accept', content };
}

/** The user declined an elicitation: `{ action: 'decline' }`. */
export function decline(): ElicitResult {
  return { action: 'decline' };
}

/** The user dismissed an elicitation without choosing: `{ action: 'cancel' }`. */
export function cancel(): ElicitResult {
  return { action: 'cancel' };
}

/** Options of {@link assistantMessage}. */
export interface AssistantMessageOptions {
  /** The model that "answered" (default `"test-model"`). */
  readonly model?: string | undefined;
  /** Why it stopped (default `"endTurn"`). */
  readonly stopReason?: string | undefined;
}

/**
 * A sampling answer: the model's reply as one text block,
 * `{ role: 'assistant', content: { type: 'text', text }, model, stopReason }`.
 */
export function assistantMessage(text: string, options: AssistantMessageOptions = {}): CreateMessageResult {
  if (typeof text !== 'string') throw argumentError('text', 'a string', text);
  return {
    role: 'assistant',
    content: { type: 'text', text },
    model: options.model ?? 'test-model',
    stopReason: options.stopReason ?? 'endTurn',
  };
}

/** A `roots/list` answer: `{ roots }`, each given as its `file://` URI or as a full `Root` (with a `name`). */
export function roots(...entries: readonly (string | Root)[]): ListRootsResult {
  return {
    roots: entries.map((entry, i) => {
      if (typeof entry === 'string') return { uri: entry };
      if (typeof entry === 'object' && entry !== null && typeof entry.uri === 'string') return entry;
      throw argumentError(`roots[${i}]`, 'a URI string or a { uri, name? } root', entry);
    }),
  };
}
