import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

const config = mergeConfig(sharedConfig, defineProject({ test: { name: 'frameworks' } }));
// Vitest hands `ssr.resolve.conditions` to node as `--conditions` for the modules it leaves to node. With
// `import` among them, node's `require` picks the ESM file of a dual package (Express's router then requires
// `is-promise` and gets a module namespace): keep only what node should add. Vite adds `import`/`require`
// per import by itself.
config.ssr.resolve.conditions = ['@boomerang/source', 'node', 'development|production'];
export default config;
