import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import * as node from './node.js';

describe('@boomerang/transport-http', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'StreamableHttpClientTransport',
      'createHttpHandler',
      'decodeHeaderValue',
      'encodeHeaderValue',
      'paramHeadersOf',
    ]);
  });

  it('exports exactly listen from @boomerang/transport-http/node', () => {
    expect(Object.keys(node).sort()).toEqual(['listen']);
  });
});
