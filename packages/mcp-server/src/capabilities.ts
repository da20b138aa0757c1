import type { ServerCapabilities } from '@boomerang/protocol';

/** The features whose capability follows the registries. */
export interface FeatureState {
  readonly tools: boolean;
  readonly prompts: boolean;
  readonly resources: boolean;
  readonly completions: boolean;
}

const FEATURES = ['tools', 'prompts', 'resources', 'completions'] as const;

/**
 * The capabilities in force for what is registered: the author's `declared` capabilities (copied), where each of
 * `tools`, `prompts`, `resources` and `completions` is present exactly when `on` says so, carrying what the
 * author declared for it, or `{}`. Other members (`logging`, `extensions`…) are kept as declared.
 */
export function featureCapabilities(
  declared: ServerCapabilities | undefined,
  on: FeatureState,
): ServerCapabilities {
  const caps = structuredClone(declared ?? {}) as Record<string, unknown>;
  for (const key of FEATURES) {
    if (!on[key]) delete caps[key];
    else caps[key] ??= {};
  }
  return caps as ServerCapabilities;
}
