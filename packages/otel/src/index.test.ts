import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@boomerang/otel', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'Attr',
      'Metric',
      'clientTelemetry',
      'extractFrom',
      'injectInto',
      'serverTelemetry',
      'spanContextOf',
      'traceparentOf',
    ]);
  });
});
