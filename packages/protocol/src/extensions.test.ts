import { describe, expect, it } from 'vitest';
import { extensionSettings, hasExtension } from './extensions.js';

const TASKS = 'io.modelcontextprotocol/tasks';

describe('extensions', () => {
  it('reads a declared extension and its settings', () => {
    const caps = { extensions: { [TASKS]: {}, 'acme/search': { depth: 2 } } };
    expect(hasExtension(caps, TASKS)).toBe(true);
    expect(extensionSettings(caps, 'acme/search')).toEqual({ depth: 2 });
  });

  it.each([
    [undefined],
    [{}],
    [{ extensions: {} }],
    [{ extensions: { [TASKS]: true } }],
    [{ extensions: { [TASKS]: [] } }],
    [{ extensions: Object.create({ [TASKS]: {} }) }],
  ])('is not declared in %j', (caps) => {
    expect(hasExtension(caps as never, TASKS)).toBe(false);
    expect(extensionSettings(caps as never, TASKS)).toBeUndefined();
  });
});
