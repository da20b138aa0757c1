// zod's verdict on the params of the notifications a client routes as they arrive (`notifications/message` and
// `notifications/progress`, schema/notifications.ts), without zod. Unlike the other checks these are exact: they
// read a value as zod does (any object that is not an array, members inherited or own), so their `false` is
// zod's rejection too, and a client routes every such notification at once. Only when zod's output would differ
// from the value (an object that is not plain, an own `__proto__` member, which zod drops) do they leave the
// verdict to zod. checks.test.ts pits them against zod both ways.
import { isLoggingLevel } from '../constants.js';
import type { Verdict } from './checked.js';
import { isFiniteNumber, isInt, isObject, isString } from './shapes.js';

/** An object as zod's `z.object` takes it: anything of type "object" but `null` and arrays. */
const isZodObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `RequestIdSchema` / `ProgressTokenSchema`: a string or a (safe) integer. */
const isStringOrInt = (value: unknown): boolean => isString(value) || isInt(value);

/**
 * The common part of both params (`NotificationParamsSchema`): `_meta`, when present, is an object whose
 * `subscriptionId` is a request id. The verdict, or `undefined` when zod's copy would not equal the value.
 */
function notificationParams(value: unknown): Verdict {
  if (!isZodObject(value)) return false;
  const meta = value._meta;
  if (meta === undefined) return isObject(value) || undefined;
  if (!isZodObject(meta)) return false;
  const id = meta['io.modelcontextprotocol/subscriptionId'];
  if (id !== undefined && !isStringOrInt(id)) return false;
  return (isObject(value) && isObject(meta)) || undefined;
}

/** `&&` of two verdicts: false when either is, else unsure when either is. */
const and = (a: Verdict, b: boolean): Verdict => (a === false || !b ? false : a);

/** `LoggingMessageNotificationParamsSchema`: a `level`, `logger?`, and a `data` member (any value, required). */
export function logParamsVerdict(value: unknown): Verdict {
  const base = notificationParams(value);
  if (base === false || !isZodObject(value)) return false;
  const params = value;
  const { logger } = params;
  return and(
    base,
    isLoggingLevel(params.level) && (logger === undefined || isString(logger)) && 'data' in params,
  );
}

/** `ProgressNotificationParamsSchema`: `progressToken`, a finite `progress`, `total?` and `message?`. */
export function progressParamsVerdict(value: unknown): Verdict {
  const base = notificationParams(value);
  if (base === false || !isZodObject(value)) return false;
  const params = value;
  const { total, message } = params;
  return and(
    base,
    isStringOrInt(params.progressToken) &&
      isFiniteNumber(params.progress) &&
      (total === undefined || isFiniteNumber(total)) &&
      (message === undefined || isString(message)),
  );
}
