// What a `tasks/update` answer must look like before it is recorded: the result of the kind of request it
// answers, and for an accepted form, content that fills the form the client was shown. A bad answer is refused
// with -32602 while the task keeps waiting (as a bad answer to a synchronous round is refused and asked again),
// instead of reaching the handler and failing the task. What the form cannot say (formats, cross-field rules)
// stays the handler's business.
import { describeIssues, describeType, isPlainObject } from '@boomerang/protocol';
import { inputRequestKind } from '@boomerang/protocol/internal';
import * as schemas from '@boomerang/protocol/schemas';

/**
 * Why `answer` cannot answer `request` (an entry of a task's `inputRequests`), as text for a `-32602`, or
 * `undefined` when it can: it must be the `result` of the request's kind (an `ElicitResult`, a
 * `CreateMessageResult`, a `ListRootsResult`), and when it accepts a form, its content must fill it (see
 * {@link formIssue}).
 */
export function answerIssues(request: unknown, answer: unknown): string | undefined {
  if (!isPlainObject(request)) return undefined;
  const kind = inputRequestKind(request.method);
  if (kind === undefined) return undefined;
  // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the kind's row names its answer's schema.
  const checked = schemas.safeParse(schemas[`${kind.result}Schema`], answer);
  if (!checked.success) {
    return `is not an answer to ${kind.method}: ${describeIssues(checked.error.issues, 'answer')}`;
  }
  const issue = formIssue(request.params, checked.data);
  return issue === undefined ? undefined : `does not fill the form: ${issue}`;
}

/**
 * Why the content of an accepted form elicitation does not fill `params.requestedSchema`: a required field
 * missing, or a field of the wrong type, outside its choices (`enum`, `oneOf`, `items.enum`, `items.anyOf`), its
 * bounds (`minimum`/`maximum`, `minLength`/`maxLength`, `minItems`/`maxItems`), or not an integer where one is
 * asked. Fields the form does not declare are left alone. `undefined` for a URL elicitation, a decline or a
 * cancel, an answer of another kind (no `action`: nothing was accepted), and for a form whose schema is not an
 * object.
 */
export function formIssue(params: unknown, result: Readonly<Record<string, unknown>>): string | undefined {
  if (!isPlainObject(params) || params.mode === 'url' || result.action !== 'accept') return undefined;
  const schema = params.requestedSchema;
  if (!isPlainObject(schema)) return undefined;
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const content = isPlainObject(result.content) ? result.content : {};
  for (const name of required) {
    if (typeof name === 'string' && !Object.hasOwn(content, name)) return `"${name}" is required`;
  }
  for (const [name, value] of Object.entries(content)) {
    const field = properties[name];
    if (!Object.hasOwn(properties, name) || !isPlainObject(field)) continue;
    const issue = fieldIssue(field, value);
    if (issue !== undefined) return `"${name}" ${issue}`;
  }
  return undefined;
}

/** Why `value` does not fit one form field, or `undefined`. */
function fieldIssue(field: Record<string, unknown>, value: unknown): string | undefined {
  switch (field.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `expected a boolean, got ${describeType(value)}`;
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        return `expected a number, got ${describeType(value)}`;
      }
      if (field.type === 'integer' && !Number.isInteger(value)) return `expected an integer, got ${value}`;
      return bounds(value, field.minimum, field.maximum, '');
    }
    case 'string': {
      if (typeof value !== 'string') return `expected a string, got ${describeType(value)}`;
      const choices = stringChoices(field.enum, field.oneOf);
      if (choices !== undefined && !choices.includes(value)) {
        return `expected one of ${JSON.stringify(choices)}, got ${JSON.stringify(value)}`;
      }
      return bounds(value.length, field.minLength, field.maxLength, ' characters');
    }
    case 'array': {
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
        return `expected an array of strings, got ${describeType(value)}`;
      }
      const items = isPlainObject(field.items) ? field.items : {};
      const choices = stringChoices(items.enum, items.anyOf);
      const stray = choices === undefined ? undefined : value.find((item) => !choices.includes(item));
      if (stray !== undefined)
        return `expected items among ${JSON.stringify(choices)}, got ${JSON.stringify(stray)}`;
      return bounds(value.length, field.minItems, field.maxItems, ' items');
    }
    default:
      return undefined;
  }
}

/** The allowed values of a choice field (`enum`, or the `const`s of `oneOf` / `anyOf`), if it is one. */
function stringChoices(values: unknown, options: unknown): readonly unknown[] | undefined {
  if (Array.isArray(values)) return values;
  if (Array.isArray(options))
    return options.map((option) => (isPlainObject(option) ? option.const : undefined));
  return undefined;
}

/** Why `size` is outside `[min, max]` (each optional), or `undefined`. */
function bounds(size: number, min: unknown, max: unknown, unit: string): string | undefined {
  if (typeof min === 'number' && size < min) return `is ${size}${unit}, under the minimum ${min}`;
  if (typeof max === 'number' && size > max) return `is ${size}${unit}, over the maximum ${max}`;
  return undefined;
}
