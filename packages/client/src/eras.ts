// The eras a Client speaks: 2026-07-28, and 2025-11-25 through its adapter (legacy/), the only place outside that
// folder that names it. To drop the old era, delete legacy/ and make this line
// `export { modernEra as defaultEra, type ModernEraOptions as EraOptions } from './connection.js';`.
export { type DualEraOptions as EraOptions, dualEra as defaultEra } from './legacy/index.js';
