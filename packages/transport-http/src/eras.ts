// The eras this package speaks beside 2026-07-28, plugged in here and nowhere else: the 2025-11-25 era of the
// endpoint (`EndpointEra`, which sees only exchanges that are not 2026-07-28) and of the client transport
// (`ClientEra`, asked only about messages that name no protocol version). legacy/ holds it all; this is the only
// file outside that folder that imports it. To drop the old era, delete legacy/, answer `undefined` from
// `endpointEra`, make `clientEra` an era that claims nothing, and drop its types from `HttpHandlerOptions`,
// `HttpMessageHandler` and `index.ts`.
export {
  type LegacyConnectOptions,
  type LegacyOptions,
  type LegacySessionOptions,
  legacyClientEra as clientEra,
  legacyEndpointEra as endpointEra,
  type SessionServer,
} from './legacy/index.js';
