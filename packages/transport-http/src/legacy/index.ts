// The 2025-11-25 era of Streamable HTTP, as one adapter around the 2026-07-28 endpoint and client transport:
// what `eras.ts` plugs in, and all that the rest of the package may name of this folder.

// --- the client transport's side
export { legacyClientEra } from './client-era.js';
// --- the endpoint's side
export {
  type LegacyOptions,
  type LegacySetting,
  legacyEndpointEra,
} from './endpoint-era.js';
export type { LegacyConnectOptions, SessionServer } from './session.js';
export type { LegacySessionOptions } from './sessions.js';
