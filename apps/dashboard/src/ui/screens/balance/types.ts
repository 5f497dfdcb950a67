import type { ResponseOf } from '../../../api/operations.js';
import type { BalanceTransactionType } from '@stablepay/contracts';
import type { Messages } from '../../../i18n.js';

export type BalanceTransactionPage = ResponseOf<'listBalanceTransactions'>;
export type BalanceTransaction = BalanceTransactionPage['balance_transactions'][number];

/**
 * The words for each kind of ledger entry, in the filter's order. Typed by the contracts' list
 * rather than copied from it: a kind added there and not named here does not compile.
 */
export const TYPE_LABELS: Record<BalanceTransactionType, keyof Messages> = {
  payment: 'bt_payment',
  unattributed: 'bt_unattributed',
  attribution: 'bt_attribution',
  refund: 'bt_refund',
  withdrawal: 'bt_withdrawal',
  withdrawal_fee: 'bt_withdrawal_fee',
  network_fee: 'bt_network_fee',
};
export const BALANCE_TRANSACTION_TYPES = Object.keys(TYPE_LABELS) as BalanceTransactionType[];
