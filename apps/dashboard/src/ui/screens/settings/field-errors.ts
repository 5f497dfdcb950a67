import { ApiError } from '../../../api/errors.js';

type Detail = ApiError['details'][number];

/**
 * The gateway's refusal as messages per field, for the fields a form shows; undefined when the
 * refusal names none of them (it is then said for the whole form). `say` words a refusal the page
 * knows by its code in the reader's language; the gateway's own message stands for the others.
 */
export const fieldErrorsOf = <F extends string>(
  err: unknown,
  fields: readonly F[],
  say: (detail: Detail) => string | undefined = () => undefined,
): Partial<Record<F, string>> | undefined => {
  if (!(err instanceof ApiError)) return undefined;
  const named = err.details.filter((d): d is Detail & { path: F } => fields.includes(d.path as F));
  if (!named.length) return undefined;
  return Object.fromEntries(named.map((d) => [d.path, say(d) ?? d.message])) as Partial<Record<F, string>>;
};
