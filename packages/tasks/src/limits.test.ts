// checkJsonSize: the bytes of what the runtime would store, measured without recursion, or its -32602.
import { McpError } from '@boomerang/protocol';
import { describe, expect, it } from 'vitest';
import { checkJsonSize, MAX_JSON_DEPTH } from './limits.js';

/** `levels` objects and arrays, alternately, around `1`. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

function refusal(run: () => unknown): { code: number; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof McpError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('did not throw');
}

describe('checkJsonSize', () => {
  it('is the UTF-8 size of the JSON', () => {
    expect(checkJsonSize({ name: 'é✓' }, 100, 'params')).toBe(
      new TextEncoder().encode('{"name":"é✓"}').length,
    );
    expect(checkJsonSize('\u0000', 100, 'params')).toBe(8);
    expect(checkJsonSize(undefined, 100, 'params')).toBe(0);
  });

  it(`takes ${MAX_JSON_DEPTH} levels and refuses one more (-32602), at any depth the stack would not survive`, () => {
    expect(checkJsonSize(nested(MAX_JSON_DEPTH), 10_000, 'params')).toBeGreaterThan(0);
    for (const levels of [MAX_JSON_DEPTH + 1, 20_000, 1_000_000]) {
      expect(refusal(() => checkJsonSize(nested(levels), 1e9, 'inputResponses'))).toEqual({
        code: -32602,
        message: `Invalid params: inputResponses nests deeper than ${MAX_JSON_DEPTH} levels`,
      });
    }
  });

  it('refuses more than maxBytes (-32602), and takes exactly maxBytes', () => {
    expect(checkJsonSize('x'.repeat(8), 10, 'params')).toBe(10);
    expect(refusal(() => checkJsonSize('x'.repeat(9), 10, 'params'))).toEqual({
      code: -32602,
      message: "Invalid params: params is 11 bytes, over this server's 10-byte limit",
    });
  });
});
