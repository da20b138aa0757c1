import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('resolvers: public surface', () => {
  it('exports exactly the engine and the builders', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DEFAULT_MAX_STATE_BYTES',
      'InvalidSignatureError',
      'ResolutionError',
      'elicit',
      'elicitResult',
      'elicitUrl',
      'elicitUrlResult',
      'isResolver',
      'listRoots',
      'planResolvers',
      'resolver',
      'runResolvers',
      'sample',
    ]);
  });

  it('exposes errors as real Error subclasses with their names', () => {
    const invalid = new api.InvalidSignatureError("tool 'x': bad");
    expect(invalid).toBeInstanceOf(Error);
    expect(invalid.name).toBe('InvalidSignatureError');
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
