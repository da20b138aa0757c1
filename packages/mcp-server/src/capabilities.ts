import type { ServerCapabilities } from '@boomerang/protocol';

/** The features whose capability follows the registries. */
export interface FeatureState {
  readonly tools: boolean;
  readonly prompts: boolean;
  readonly resources: boolean;
  readonly completions: boolean;
}

/**
 * Keeps the advertised capabilities in step with the registries: each of `tools`, `prompts`, `resources` and
 * `completions` is present exactly when `on` says so, carrying what the author declared for it in the
 * `capabilities` option (a deep copy), or `{}`. Other members (`logging`, `extensions`…) are left as they are.
 * `caps` is mutated in place: the low-level server serves it by reference in every `server/discover`.
 */
export function syncCapabilities(
  caps: ServerCapabilities,
  declared: ServerCapabilities | undefined,
  on: FeatureState,
): void {
  const target = caps as Record<string, unknown>;
  const given = (declared ?? {}) as Record<string, unknown>;
  for (const key of ['tools', 'prompts', 'resources', 'completions'] as const) {
    if (!on[key]) delete target[key];
    else target[key] ??= given[key] === undefined ? {} : structuredClone(given[key]);
  }
}
