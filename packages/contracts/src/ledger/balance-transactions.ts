import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { Currency } from '../shared/money.js';
import { listPage, pageParams } from '../shared/paging.js';
import { BlockNumber, BlockchainName, IsoDateOrDateTime, IsoTimestamp, Uuid } from '../shared/scalars.js';

export const BALANCE_TRANSACTION_LIST_DEFAULT_LIMIT = 50;
export const BALANCE_TRANSACTION_LIST_MAX_LIMIT = 200;
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/**
 * What moved the merchant wallet's balance: `payment` (a customer's tokens arrived for a payment,
 * verified or underpaid), `unattributed` (tokens arrived that no payment claims), `attribution`
 * (an unattributed arrival later claimed by a payment: amount 0, the wallet already counted it),
 * `refund`, `withdrawal` and `withdrawal_fee` (tokens left the wallet).
 */
export const BalanceTransactionType = z.enum([
  'payment',
  'unattributed',
  'attribution',
  'refund',
  'withdrawal',
  'withdrawal_fee',
]);
export type BalanceTransactionType = z.infer<typeof BalanceTransactionType>;

/** A signed amount with 6 decimals: "25.000000", "-1.500000". */
export const SignedDecimalString = z.string().regex(/^-?\d+\.\d{6}$/, 'Invalid signed decimal string');

/** GET /balance-transactions (jwt) and /balance-transactions/api/list (key) query. */
export const BalanceTransactionListQuery = z
  .object({
    type: BalanceTransactionType.optional(),
    currency: Currency.optional(),
    /** inclusive lower bound on created_at; a bare date means 00:00:00Z of that day */
    startDate: IsoDateOrDateTime.optional(),
    /** upper bound on created_at; a bare date includes that whole day */
    endDate: IsoDateOrDateTime.optional(),
    payment_id: Uuid.optional(),
    refund_id: Uuid.optional(),
    withdrawal_id: Uuid.optional(),
    ...pageParams({
      max: BALANCE_TRANSACTION_LIST_MAX_LIMIT,
      default: BALANCE_TRANSACTION_LIST_DEFAULT_LIMIT,
    }),
    /** `csv` answers a CSV export (as `Accept: text/csv` does) */
    format: z.enum(['json', 'csv']).optional(),
  })
  .refine((q) => !q.startDate || !q.endDate || q.startDate.slice(0, 10) <= q.endDate.slice(0, 10), {
    message: 'startDate must not be after endDate',
    path: ['endDate'],
  });
export type BalanceTransactionListQuery = z.infer<typeof BalanceTransactionListQuery>;

export const BalanceTransaction = z.object({
  id: Uuid,
  type: BalanceTransactionType,
  /** what the movement did to the wallet balance, signed */
  amount: SignedDecimalString,
  currency: Currency,
  blockchain: BlockchainName,
  tx_hash: z.string().nullable(),
  block_number: BlockNumber.nullable(),
  payment_id: Uuid.nullable(),
  refund_id: Uuid.nullable(),
  withdrawal_id: Uuid.nullable(),
  /** the wallet balance of this token after the movement, in the order the ledger recorded it */
  balance_after: SignedDecimalString,
  created_at: IsoTimestamp,
});
export type BalanceTransaction = z.infer<typeof BalanceTransaction>;

/** Newest first. */
export const BalanceTransactionListPage = listPage('balance_transactions', BalanceTransaction);
export const BalanceTransactionListResponse = successEnvelope(BalanceTransactionListPage);
export type BalanceTransactionListResponse = z.infer<typeof BalanceTransactionListResponse>;
