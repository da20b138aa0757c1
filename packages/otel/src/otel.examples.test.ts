import { readFileSync } from 'node:fs';
import { metrics, SpanKind, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { tracedDeploy } from './otel.examples.js';
import { sdk } from './test-support/sdk.js';

describe('README examples', () => {
  it('README.md quotes every example region verbatim', () => {
    const source = readFileSync(new URL('./otel.examples.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const regions = [...source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\n\s*\/\/ #endregion \1/g)];
    expect(regions.map((m) => m[1])).toEqual(['server', 'client']);
    for (const [, , body] of regions) {
      expect(readme).toContain((body as string).replace(/^ {2}/gm, '').trim());
    }
  });

  it('the deploy flow: one trace, a call span, three client rounds each parenting a server round', async () => {
    const world = sdk();
    trace.setGlobalTracerProvider(world.tracerProvider);
    metrics.setGlobalMeterProvider(world.meterProvider);
    try {
      const result = await tracedDeploy();
      expect(result.content).toEqual([{ type: 'text', text: 'api → eu (acme)' }]);
      const spans = world.spans().filter((span) => span.name === 'tools/call deploy');
      expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
      expect(spans.map((span) => span.kind).sort()).toEqual(
        [
          SpanKind.INTERNAL,
          SpanKind.CLIENT,
          SpanKind.CLIENT,
          SpanKind.CLIENT,
          SpanKind.SERVER,
          SpanKind.SERVER,
          SpanKind.SERVER,
        ].sort(),
      );
    } finally {
      trace.disable();
      metrics.disable();
      await world.shutdown();
    }
  });
});
