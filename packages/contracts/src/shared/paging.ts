import { z } from 'zod';

/**
 * A whole number in a query string, written in decimal digits only: `0x10`, `1e3`, ` 5` or `5.0`
 * are refused rather than read as something the client may not have meant.
 */
export function queryInt(opts: { min?: number; max?: number } = {}) {
  return z
    .string()
    .regex(/^(0|[1-9]\d{0,14})$/, 'must be a whole number written in decimal digits')
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(opts.min ?? 0)
        .max(opts.max ?? Number.MAX_SAFE_INTEGER),
    );
}

/** Page parameters shared by list endpoints. */
export function pageLimit(opts: { max: number; default: number }) {
  return queryInt({ min: 1, max: opts.max }).default(opts.default);
}
export const PageOffset = queryInt({ min: 0 }).default(0);

/** What every page of a list answers beside its items. */
const pageCounts = {
  total: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  offset: z.number().int().nonnegative(),
};

/** One page of a list: `{<items>: [...], total, limit, offset}`. */
export const listPage = <K extends string, T extends z.ZodType>(items: K, item: T) =>
  z.object({ [items]: z.array(item), ...pageCounts } as Record<K, z.ZodArray<T>> & typeof pageCounts);

/** The `limit` (1 to `max`, `default` when absent) and `offset` of a list's query. */
export const pageParams = (limit: { max: number; default: number }) => ({
  limit: pageLimit(limit),
  offset: PageOffset,
});
