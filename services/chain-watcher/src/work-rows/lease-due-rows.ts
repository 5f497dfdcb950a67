import type { Knex } from 'knex';
import { leaseRows } from '@stablepay/platform';

/**
 * Leases up to `limit` rows of `table` that are open and due (`next_check_at` passed), soonest due
 * first (see leaseRows): the chain is asked about them with no transaction open.
 */
export const leaseDueRows = <Row>(
  db: Knex,
  opts: {
    table: string;
    key: string;
    /** SQL condition of the rows still open */
    open: string;
    /** further SQL assignments made with the lease */
    alsoSet?: string;
    limit: number;
    leaseMs: number;
  },
): Promise<Row[]> =>
  leaseRows<Row>(db, {
    ...opts,
    open: `${opts.open} and next_check_at <= now()`,
    orderBy: 'next_check_at',
    returning: '*',
  });
