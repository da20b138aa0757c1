import { describe, expect, it } from 'vitest';
import { packageManagerFrom, runScript } from './install.js';

describe('packageManagerFrom', () => {
  it.each([
    ['npm/10.8.2 node/v20.19.0 linux x64 workspaces/false', 'npm'],
    ['pnpm/10.34.9 npm/? node/v20.19.0 linux x64', 'pnpm'],
    ['yarn/1.22.22 npm/? node/v20.19.0 linux x64', 'yarn'],
    ['bun/1.2.0 npm/? node/v22.6.0 linux x64', 'bun'],
    ['deno/2.0', 'npm'],
    [undefined, 'npm'],
  ])('%s → %s', (agent, manager) => {
    expect(packageManagerFrom(agent)).toBe(manager);
  });
});

describe('runScript', () => {
  it('writes each manager’s way of running a script', () => {
    expect(runScript('npm', 'dev')).toBe('npm run dev');
    expect(runScript('npm', 'test')).toBe('npm test');
    expect(runScript('pnpm', 'test')).toBe('pnpm test');
    expect(runScript('yarn', 'dev')).toBe('yarn dev');
    expect(runScript('bun', 'dev')).toBe('bun run dev');
  });
});
