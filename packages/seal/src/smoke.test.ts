import { expect, it } from 'vitest';
import * as p from './index.js';
import * as n from './index.node.js';
it('smoke', () => {
  const key = p.generateKey();
  const a = p.createSealer({ keys: [key], audience: 'x' });
  const b = n.createSealer({ keys: [key], audience: 'x' });
  const msg = new TextEncoder().encode('hello world');
  const t1 = a.seal(msg, { context: 'c' });
  const t2 = b.seal(msg, { context: 'c' });
  console.log(t1, t2);
  expect(b.unseal(t1, { context: 'c' })).toEqual(msg);
  expect(a.unseal(t2, { context: 'c' })).toEqual(msg);
  expect(a.unsealJson(b.sealJson({ a: 1 }))).toEqual({ a: 1 });
});
