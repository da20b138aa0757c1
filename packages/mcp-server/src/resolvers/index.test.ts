import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('resolvers: public surface', () => {
  it('exports exactly the engine and the builders', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DEFAULT_MAX_STATE_BYTES',
      'ResolutionError',
      'ResolverGraphError',
      'elicit',
      'elicitResult',
      'elicitUrl',
      'elicitUrlResult',
      'isResolver',
      'listRoots',
      'planRegistration',
      'planResolvers',
      'resolver',
      'runResolvers',
      'sample',
      'withoutResolved',
    ]);
  });

  it('exposes errors as real Error subclasses with their names', () => {
    const invalid = new api.ResolverGraphError("tool 'x': bad");
    expect(invalid).toBeInstanceOf(Error);
    expect(invalid.name).toBe('ResolverGraphError');
    const refused = new api.ResolutionError('backorder', 'cancel');
    expect(refused).toBeInstanceOf(Error);
    expect(refused).toMatchObject({
      name: 'ResolutionError',
      resolver: 'backorder',
      action: 'cancel',
      message: "Resolver for 'backorder' could not resolve: elicitation was cancelled",
    });
  });

  it('tells resolvers apart from look-alikes', () => {
    expect(api.isResolver(api.resolver({}, () => 1))).toBe(true);
    for (const value of [{}, null, () => 1, api.listRoots(), Object.freeze({})]) {
      expect(api.isResolver(value)).toBe(false);
    }
  });
});
