// The names both entries export besides `createSealer` and `sealBackend` (which differ by backend): one curated
// list, re-exported whole by `index.ts` and `index.node.ts`.
// --- encodings

export { decodeBase64Url, encodeBase64Url } from './base64url.js';
export { canonicalJson } from './canonical-json.js';
export type { PreparedContext } from './claims.js';
export type { SealCodec } from './envelope.js';
// --- errors
export { SEAL_ERROR_REASONS, SealError, type SealErrorReason } from './errors.js';
// --- keys
export { generateKey, parseKeys } from './keys.js';
export type {
  SealContext,
  Sealer,
  SealerCodecOptions,
  SealerCommonOptions,
  SealerKeyOptions,
  SealerOptions,
  SealOptions,
  UnsealOptions,
} from './sealer.js';
