import { describe, expect, it } from 'vitest';
import { formatBearerChallenge, parseBearerChallenge } from './challenge.js';

describe('parseBearerChallenge', () => {
  it('reads resource_metadata, scope, error and error_description', () => {
    const header =
      'Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example/.well-known/oauth-protected-resource", error_description="Need \\"write\\""';
    expect(parseBearerChallenge(header)).toEqual({
      error: 'insufficient_scope',
      scope: ['files:read', 'files:write'],
      resourceMetadata: 'https://mcp.example/.well-known/oauth-protected-resource',
      errorDescription: 'Need "write"',
    });
  });

  it('finds Bearer among other challenges, case-insensitively, with token values', () => {
    const header = 'Basic realm="x", bearer error=invalid_token, DPoP algs="ES256"';
    expect(parseBearerChallenge(header)).toEqual({ error: 'invalid_token' });
  });

  it('answers undefined without a Bearer challenge, and {} for a bare one', () => {
    expect(parseBearerChallenge(null)).toBeUndefined();
    expect(parseBearerChallenge('Basic realm="x"')).toBeUndefined();
    expect(parseBearerChallenge('Bearer')).toEqual({});
    expect(parseBearerChallenge('Bearer scope=""')).toEqual({});
  });

  it('round-trips through formatBearerChallenge', () => {
    const challenge = {
      error: 'insufficient_scope',
      scope: ['a', 'b'],
      resourceMetadata: 'https://h/.well-known/oauth-protected-resource/mcp',
      errorDescription: 'quote " and \\ backslash',
    };
    expect(parseBearerChallenge(formatBearerChallenge(challenge))).toEqual(challenge);
    expect(formatBearerChallenge({})).toBe('Bearer');
  });
});
