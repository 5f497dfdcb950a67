import type { RouteSpec } from '@stablepay/contracts';

const shape = (path: string): number[] => path.split('/').map((s) => (s.startsWith(':') ? 1 : 0));

/**
 * Registration order in which no parameter segment shadows a static one: `/payments/cctp-fee`
 * (public) must be tried before `/payments/:id` (jwt), whatever order the table lists them in.
 * Paths with different segment counts never match the same URL, so ordering by segment count,
 * then by shape (static before parameter, segment by segment), is enough; the sort is stable, so
 * routes of one shape keep the table's order.
 */
export const orderRoutes = <R extends Pick<RouteSpec, 'path'>>(table: readonly R[]): R[] =>
  [...table].sort((a, b) => {
    const sa = shape(a.path);
    const sb = shape(b.path);
    if (sa.length !== sb.length) return sa.length - sb.length;
    for (let i = 0; i < sa.length; i++) {
      const d = sa[i]! - sb[i]!;
      if (d !== 0) return d;
    }
    return 0;
  });
