import { describe, expect, it } from 'vitest';
import {
  formatBearerChallenge,
  formatDpopChallenge,
  parseBearerChallenge,
  parseDpopChallenge,
} from './challenge.js';

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

describe('parseDpopChallenge / formatDpopChallenge', () => {
  it('reads the DPoP challenge beside a Bearer one, with algs', () => {
    const header =
      'Bearer resource_metadata="https://m/.well-known/oauth-protected-resource", DPoP error="use_dpop_nonce", algs="ES256 PS256", error_description="Resource server requires nonce in DPoP proof"';
    expect(parseDpopChallenge(header)).toEqual({
      error: 'use_dpop_nonce',
      algs: ['ES256', 'PS256'],
      errorDescription: 'Resource server requires nonce in DPoP proof',
    });
    expect(parseBearerChallenge(header)).toEqual({
      resourceMetadata: 'https://m/.well-known/oauth-protected-resource',
    });
    expect(parseDpopChallenge('Bearer error="invalid_token"')).toBeUndefined();
    expect(parseDpopChallenge('dpop')).toEqual({});
  });

  it('round-trips, and writes two challenges a client can tell apart', () => {
    const challenge = {
      error: 'invalid_dpop_proof',
      algs: ['ES256'],
      scope: ['a'],
      resourceMetadata: 'https://h/.well-known/oauth-protected-resource/mcp',
    };
    const header = `${formatDpopChallenge(challenge)}, ${formatBearerChallenge({ scope: ['a'] })}`;
    expect(header).toBe(
      'DPoP error="invalid_dpop_proof", algs="ES256", scope="a", resource_metadata="https://h/.well-known/oauth-protected-resource/mcp", Bearer scope="a"',
    );
    expect(parseDpopChallenge(header)).toEqual(challenge);
    expect(parseBearerChallenge(header)).toEqual({ scope: ['a'] });
    expect(formatDpopChallenge({})).toBe('DPoP');
  });
});
