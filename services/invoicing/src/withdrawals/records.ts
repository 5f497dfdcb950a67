import type { BlockchainName, Currency, WithdrawalStatus } from '@stablepay/contracts';

/** The two transfers of a withdrawal: the net amount to the destination, the fee to the treasury. */
export type Leg = 'net' | 'fee';
export type LegState = 'requested' | 'submitted' | 'confirmed' | 'failed';

/** Amounts are exact 6-decimal strings ("12.500000"), never floats. */
export interface WithdrawalRecord {
  id: string;
  merchantId: string;
  currency: Currency;
  blockchain: BlockchainName;
  destinationAddress: string;
  treasuryAddress: string;
  grossAmount: string;
  feeAmount: string;
  netAmount: string;
  feeRate: string;
  status: WithdrawalStatus;
  failureReason: string | null;
  net: { state: LegState; txHash: string | null; confirmedAt: Date | null };
  fee: { state: LegState; txHash: string | null; confirmedAt: Date | null };
  invoiceId: string | null;
  createdAt: Date;
  completedAt: Date | null;
  failedAt: Date | null;
}
