import { describe, expect, it } from 'vitest';
import {
  elicitationViewUri,
  isUiUri,
  modelVisibleTools,
  toolViewUri,
  toolVisibility,
  uiMetaOf,
} from './wire.js';

describe('reading _meta.ui', () => {
  it('reads a tool view from _meta.ui.resourceUri, else the deprecated flat key', () => {
    expect(toolViewUri({ _meta: { ui: { resourceUri: 'ui://a/b' } } })).toBe('ui://a/b');
    expect(toolViewUri({ _meta: { 'ui/resourceUri': 'ui://legacy' } })).toBe('ui://legacy');
    expect(toolViewUri({ _meta: { ui: { resourceUri: 'https://not-a-view' } } })).toBeUndefined();
    expect(toolViewUri({ name: 'plain' })).toBeUndefined();
  });

  it.each([
    [undefined, ['model', 'app']],
    [{ visibility: ['app'] }, ['app']],
    [{ visibility: ['model'] }, ['model']],
    [{ visibility: 'app' }, ['model', 'app']],
    [{ visibility: ['app', 'everyone', 7] }, ['app']],
  ])('visibility of %j is %j', (ui, expected) => {
    expect(toolVisibility(ui === undefined ? {} : { _meta: { ui } })).toEqual(expected);
  });

  it('keeps app-only tools from the model', () => {
    const tools = [
      { name: 'both' },
      { name: 'app', _meta: { ui: { visibility: ['app'] } } },
      { name: 'model', _meta: { ui: { visibility: ['model'] } } },
    ];
    expect(modelVisibleTools(tools).map((t) => t.name)).toEqual(['both', 'model']);
  });

  it('reads the view an elicitation names, and nothing from a malformed _meta', () => {
    expect(elicitationViewUri({ message: 'm', _meta: { ui: { resourceUri: 'ui://p' } } })).toBe('ui://p');
    for (const bad of [
      null,
      'x',
      { _meta: [] },
      { _meta: { ui: [] } },
      { _meta: { ui: { resourceUri: 3 } } },
    ])
      expect(elicitationViewUri(bad)).toBeUndefined();
    expect(uiMetaOf({ _meta: { ui: { a: 1 } } })).toEqual({ a: 1 });
    expect([isUiUri('ui://'), isUiUri('ui://x'), isUiUri(1)]).toEqual([false, true, false]);
  });
});
