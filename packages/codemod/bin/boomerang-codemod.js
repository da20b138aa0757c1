#!/usr/bin/env node
// The `boomerang-codemod` bin. A plain file that exists before the package is built, so that installing the
// workspace can link it; the CLI itself is `dist/cli.js` (src/cli.ts).
import '../dist/cli.js';
