/** placeholder */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';
