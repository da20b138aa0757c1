// 2025-11-25 constants the dual-era paths need.
import { ErrorCode } from '../errors.js';

/** The protocol revision of legacy peers: they open a session with `initialize` and call the client back. */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

/** `-32002` (2025-11-25 and earlier): resource not found. 2026-07-28 answers `-32602` with `data.uri`. */
export const RESOURCE_NOT_FOUND = ErrorCode.ResourceNotFound;

/** `-32042` (2025-11-25 only): URL elicitation required before the request can proceed. */
export const URL_ELICITATION_REQUIRED = ErrorCode.UrlElicitationRequired;
