import { ApiError } from '../../../api/errors.js';

/**
 * The gateway's refusal as messages per field, for the fields a form shows; undefined when the
 * refusal names none of them (it is then said for the whole form).
 */
export const fieldErrorsOf = <F extends string>(
  err: unknown,
  fields: readonly F[],
): Partial<Record<F, string>> | undefined => {
  if (!(err instanceof ApiError)) return undefined;
  const named = err.details.filter((d): d is typeof d & { path: F } => fields.includes(d.path as F));
  if (!named.length) return undefined;
  return Object.fromEntries(named.map((d) => [d.path, d.message])) as Partial<Record<F, string>>;
};
