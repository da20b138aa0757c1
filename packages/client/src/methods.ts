// Which methods the client knows from the spec, and which may answer `input_required`.
import { isInputRequiredMethod } from '@boomerang/protocol';

/** The methods of the 2026-07-28 spec a client sends; any other method is an extension's or a vendor's. */
const SPEC_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
  'subscriptions/listen',
]);

/**
 * True when `method` may answer `input_required`: the three MRTR methods of the spec, and any method outside it
 * (an extension's or a vendor's method decides for itself; the server refuses what it does not allow).
 */
export function mayAnswerInputRequired(method: string): boolean {
  return isInputRequiredMethod(method) || !SPEC_METHODS.has(method);
}
