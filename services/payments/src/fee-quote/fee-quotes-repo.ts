import type { Knex } from 'knex';
import { FEE_QUOTE_USES } from '../db/tables.js';

/** The unique key that lets one fee quote pay for one payment only. */
export const FEE_QUOTE_USES_KEY = 'fee_quote_uses_pkey';

export interface FeeQuoteUseRow {
  /** lower-case hex: the same quote is the same row however the client cased it */
  signature: string;
  payment_id: string;
  valid_until: Date;
}

/** Throws a unique violation on FEE_QUOTE_USES_KEY when the quote has already been spent. */
export const insertFeeQuoteUse = async (trx: Knex.Transaction, row: FeeQuoteUseRow): Promise<void> => {
  await trx(FEE_QUOTE_USES).insert(row);
};
