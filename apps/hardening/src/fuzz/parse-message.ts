// parseMessage on anything a wire can carry: it never throws, and it either accepts a well-formed envelope or
// answers with the JSON-RPC error a server would send (-32700 for text that is not JSON, -32600 for the rest).
import { ErrorCode } from '@boomerang/protocol';
import { messageKind, parseMessage } from '@boomerang/protocol/transport';
import fc from 'fast-check';
import type { FuzzTarget } from './target.js';

const id = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.double(), fc.constant(null), fc.boolean());
const member = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(undefined));

/** Messages that are JSON-RPC, nearly JSON-RPC, or not at all, as a value. */
const envelope = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('1.0'), fc.constant(2), fc.string({ maxLength: 3 })),
    id,
    method: fc.oneof(
      fc.constantFrom('tools/call', 'initialize', 'ping', '__proto__'),
      fc.string({ maxLength: 12 }),
    ),
    params: member,
    result: member,
    error: fc.oneof(
      fc.record(
        { code: fc.oneof(fc.integer(), fc.double()), message: fc.string(), data: member },
        { requiredKeys: [] },
      ),
      member,
    ),
    ['__proto__']: member,
  },
  { requiredKeys: [] },
);

/** A JSON text mutated at one place: a character replaced, deleted or inserted, or the text cut short. */
const mutatedText = fc
  .tuple(
    envelope.map((value) => JSON.stringify(value) ?? ''),
    fc.nat(),
    fc.string({ minLength: 1, maxLength: 2 }),
    fc.nat(3),
  )
  .map(([text, at, with_, how]) => {
    const i = text.length === 0 ? 0 : at % text.length;
    if (how === 0) return text.slice(0, i) + with_ + text.slice(i + 1);
    if (how === 1) return text.slice(0, i) + text.slice(i + 1);
    if (how === 2) return text.slice(0, i) + with_ + text.slice(i);
    return text.slice(0, i);
  });

const input = fc.oneof(
  { weight: 3, arbitrary: envelope.map((value) => JSON.stringify(value) ?? '') },
  { weight: 3, arbitrary: mutatedText },
  { weight: 1, arbitrary: envelope },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
  { weight: 1, arbitrary: fc.json({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2, withBigInt: true, withMap: true }) },
);

const ERRORS: ReadonlySet<number> = new Set([ErrorCode.ParseError, ErrorCode.InvalidRequest]);

/** The parseMessage target. */
export const parseMessageTarget: FuzzTarget = {
  name: 'parseMessage',
  claim: 'never throws; accepts a valid envelope (its kind agrees), else -32700 / -32600 without a null id',
  setup: () => ({
    property: fc.property(input, (value) => {
      const parsed = parseMessage(value);
      if (parsed.ok) {
        if (messageKind(parsed.message) !== parsed.kind) throw new Error(`kind ${parsed.kind} disagrees`);
        return;
      }
      const { error } = parsed;
      if (!ERRORS.has(error.error.code)) throw new Error(`unexpected code ${error.error.code}`);
      if (error.jsonrpc !== '2.0' || ('id' in error && error.id === null)) {
        throw new Error(`malformed error ${JSON.stringify(error)}`);
      }
    }) as never,
  }),
};
