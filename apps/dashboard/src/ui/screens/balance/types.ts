/** GET /balance-transactions, as the dashboard reads it (packages/contracts: BalanceTransactionListPage). */
export const BALANCE_TRANSACTION_TYPES = [
  'payment',
  'unattributed',
  'attribution',
  'refund',
  'withdrawal',
  'withdrawal_fee',
] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

export interface BalanceTransaction {
  id: string;
  type: BalanceTransactionType;
  /** signed, six decimals: "25.000000" in, "-1.500000" out */
  amount: string;
  currency: string;
  blockchain: string;
  tx_hash: string | null;
  block_number: number | null;
  payment_id: string | null;
  refund_id: string | null;
  withdrawal_id: string | null;
  balance_after: string;
  created_at: string;
}

export interface BalanceTransactionPage {
  balance_transactions: BalanceTransaction[];
  total: number;
  limit: number;
  offset: number;
}
