// An independent DPoP proof check for the mock servers (RFC 9449 §4.3), written with jose and node:crypto only:
// the client's proofs are judged by code that shares nothing with the package's own verifier.
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose';

export interface ProofExpectation {
  readonly htm: string;
  readonly htu: string;
  /** The access token the proof must hash into `ath`; none for token requests. */
  readonly accessToken?: string;
  /** The nonce the proof must carry. */
  readonly nonce?: string;
}

export type ProofCheck =
  | { readonly ok: true; readonly jkt: string; readonly jti: string }
  | { readonly ok: false; readonly error: 'invalid_dpop_proof' | 'use_dpop_nonce'; readonly why: string };

const fail = (why: string): ProofCheck => ({ ok: false, error: 'invalid_dpop_proof', why });

export async function checkProof(proof: string | null, expected: ProofExpectation): Promise<ProofCheck> {
  if (proof === null || proof.includes(',')) return fail('one DPoP header expected');
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    return fail('not a JWS');
  }
  const jwk = header.jwk as JWK | undefined;
  if (
    header.typ !== 'dpop+jwt' ||
    typeof header.alg !== 'string' ||
    header.alg.startsWith('HS') ||
    jwk === undefined
  )
    return fail('header');
  if ('d' in jwk) return fail('private key in jwk');
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(proof, await importJWK(jwk, header.alg)));
  } catch {
    return fail('signature');
  }
  if (typeof payload.jti !== 'string' || payload.jti.length < 16) return fail('jti');
  if (payload.htm !== expected.htm) return fail('htm');
  if (payload.htu !== expected.htu) return fail('htu');
  if (typeof payload.iat !== 'number' || Math.abs(payload.iat - Date.now() / 1000) > 60) return fail('iat');
  if (expected.accessToken !== undefined) {
    const ath = createHash('sha256').update(expected.accessToken, 'ascii').digest('base64url');
    if (payload.ath !== ath) return fail('ath');
  } else if (payload.ath !== undefined) {
    return fail('ath on a token request');
  }
  if (expected.nonce !== undefined && payload.nonce !== expected.nonce) {
    return { ok: false, error: 'use_dpop_nonce', why: 'nonce' };
  }
  return { ok: true, jkt: await calculateJwkThumbprint(jwk, 'sha256'), jti: payload.jti };
}
