// Questions an App answers: an ordinary form elicitation whose request names a view in `_meta.ui.resourceUri`.
// A host that renders Apps shows the view and sends back its answer; any other client shows the form. Either way
// the answer is a standard `ElicitResult`, validated by the server against the same schema.

import {
  type ElicitOutcome,
  elicit,
  elicitResult,
  type FormSchema,
  type FormValues,
  type Question,
} from '@boomerang/mcp-server';
import { argumentError } from '@boomerang/protocol';
import { isUiUri } from './wire.js';

/** Options of {@link elicitApp}. */
export interface ElicitAppOptions {
  /** The question in words: the form's message, and what the view finds in `hostContext.elicitation.message`. */
  readonly message: string;
}

function appMeta(resourceUri: unknown, options: unknown, where: string) {
  if (!isUiUri(resourceUri)) throw argumentError(`${where} resourceUri`, 'a ui:// URI', resourceUri);
  if (typeof options !== 'object' || options === null)
    throw argumentError(`${where} options`, '{ message }', options);
  const { message } = options as { message?: unknown };
  if (typeof message !== 'string') throw argumentError(`${where} options.message`, 'string', message);
  return { message, meta: { _meta: { ui: { resourceUri } } } };
}

/**
 * A resolver question answered by an App: the view at `resourceUri` (registered with `registerAppView`) when the
 * host renders Apps, the form of `schema` otherwise. On the wire it is a form-mode `elicitation/create` with
 * `_meta: { ui: { resourceUri } }`, so the same tool works with every client; the view's answer is validated
 * against `schema` like a form's (by the host first, then here), and becomes the resolver's value. A declined
 * or cancelled question fails the call (see {@link elicitAppResult}).
 *
 * @throws TypeError when `resourceUri` is not a `ui://` URI, `message` not a string, or `schema` outside the
 * elicitation subset (flat primitives and enums).
 */
export function elicitApp<const S extends FormSchema>(
  resourceUri: string,
  schema: S,
  options: ElicitAppOptions,
): Question<FormValues<S>> {
  const { message, meta } = appMeta(resourceUri, options, 'elicitApp()');
  return elicit(message, schema, meta);
}

/**
 * Like {@link elicitApp}, but the resolver receives the whole outcome (`{ action: 'accept', content }`,
 * `{ action: 'decline' }` or `{ action: 'cancel' }`) and a refusal does not fail the call.
 *
 * @throws TypeError as {@link elicitApp}.
 */
export function elicitAppResult<const S extends FormSchema>(
  resourceUri: string,
  schema: S,
  options: ElicitAppOptions,
): Question<ElicitOutcome<FormValues<S>>> {
  const { message, meta } = appMeta(resourceUri, options, 'elicitAppResult()');
  return elicitResult(message, schema, meta);
}
