// The seal codec under mutation: a token minted for one payload and context opens exactly once, unchanged, with
// that context; any mutation of the token (a character changed, dropped, added, moved, the token cut or padded),
// and the right token under another context, is refused with a SealError. Nothing else ever comes out.
import { createSealer, generateKey, SealError } from '@boomerang/seal';
import fc from 'fast-check';
import type { FuzzTarget } from './target.js';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** One edit of a token: what to do, where, and with which characters. */
const edit = fc.record({
  how: fc.constantFrom('replace', 'delete', 'insert', 'swap', 'truncate', 'append', 'case'),
  at: fc.nat(),
  with: fc.oneof(fc.constantFrom(...BASE64URL), fc.constantFrom('=', '.', '+', '/', ' ', '\u0000', 'é')),
});

function mutate(token: string, edits: readonly { how: string; at: number; with: string }[]): string {
  let text = token;
  for (const { how, at, with: char } of edits) {
    const i = text.length === 0 ? 0 : at % text.length;
    if (how === 'replace') text = text.slice(0, i) + char + text.slice(i + 1);
    else if (how === 'delete') text = text.slice(0, i) + text.slice(i + 1);
    else if (how === 'insert') text = text.slice(0, i) + char + text.slice(i);
    else if (how === 'swap' && i + 1 < text.length) {
      text = text.slice(0, i) + text[i + 1] + text[i] + text.slice(i + 2);
    } else if (how === 'truncate') text = text.slice(0, i);
    else if (how === 'append') text += char;
    else if (how === 'case') {
      const c = text[i] ?? '';
      text =
        text.slice(0, i) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + text.slice(i + 1);
    }
  }
  return text;
}

/** The seal codec target. */
export const sealTarget: FuzzTarget = {
  name: 'seal codec',
  claim: 'the minted token opens once unchanged; every mutation and every other context is a SealError',
  setup() {
    const sealer = createSealer({ keys: [generateKey(), generateKey()], audience: 'fuzz' });
    const refused = (token: string, context: string): boolean => {
      try {
        sealer.unseal(token, { context });
      } catch (error) {
        if (error instanceof SealError) return true;
        throw error;
      }
      return false;
    };
    return {
      property: fc.property(
        fc.uint8Array({ maxLength: 96 }),
        fc.string({ maxLength: 24 }),
        fc.string({ maxLength: 24 }),
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        (payload, context, otherContext, edits) => {
          const token = sealer.seal(payload, { context });
          const opened = sealer.unseal(token, { context });
          if (opened.length !== payload.length || opened.some((byte, i) => byte !== payload[i])) {
            throw new Error('the minted token did not open to its payload');
          }
          const mutated = mutate(token, edits);
          if (mutated !== token && !refused(mutated, context)) {
            throw new Error(`a mutated token opened: ${JSON.stringify(mutated)}`);
          }
          if (otherContext !== context && !refused(token, otherContext)) {
            throw new Error('the token opened under another context');
          }
        },
      ) as never,
    };
  },
};
