import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('create-boomerang', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DEFAULT_DIR',
      'TEMPLATES',
      'findTemplate',
      'folderForName',
      'loadTemplateLayers',
      'ownVersion',
      'packageManagerFrom',
      'parseCliArgs',
      'projectNameProblems',
      'renderTemplate',
      'runCli',
      'runScript',
      'scaffold',
      'targetProblem',
      'usage',
    ]);
  });
});
