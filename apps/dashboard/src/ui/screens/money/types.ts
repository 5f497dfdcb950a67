import type { ResponseOf } from '../../../api/operations.js';

export type Withdrawal = ResponseOf<'getWithdrawal'>;
export type WithdrawalPage = ResponseOf<'listWithdrawals'>;
export type Invoice = ResponseOf<'listInvoices'>[number];
export type BillingProfile = ResponseOf<'getBillingProfile'>;

export const INVOICE_LANGUAGES = ['en', 'de', 'fr', 'es', 'it'] as const;
