import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { Currency, DecimalString } from '../shared/money.js';
import { BlockNumber, BlockchainName, EvmAddress, IsoTimestamp } from '../shared/scalars.js';
import { SignedDecimalString } from './balance-transactions.js';

/**
 * `agrees`: the ledger and balanceOf say the same; `in_flight`: they differ while a movement of the
 * wallet is being decided (a payment awaiting its verdict, a transfer awaiting confirmation);
 * `discrepancy`: they differ and nothing explains it; `unreadable`: the chain could not be read.
 */
export const ReconciliationWalletStatus = z.enum(['agrees', 'in_flight', 'discrepancy', 'unreadable']);

export const ReconciliationWallet = z.object({
  blockchain: BlockchainName,
  token: Currency,
  address: EvmAddress,
  /** the block both balances are read at */
  block_number: BlockNumber.nullable(),
  ledger_balance: SignedDecimalString.nullable(),
  onchain_balance: DecimalString.nullable(),
  /** onchain_balance − ledger_balance */
  difference: SignedDecimalString.nullable(),
  status: ReconciliationWalletStatus,
});

/** GET /reconciliation/api/latest: the latest comparison of the ledger with the chain. */
export const Reconciliation = z.object({
  /** null until the first run finished */
  checked_at: IsoTimestamp.nullable(),
  wallets: z.array(ReconciliationWallet),
  /** wallets whose difference nothing explains */
  discrepancies: z.number().int().nonnegative(),
});
export type Reconciliation = z.infer<typeof Reconciliation>;
export const ReconciliationResponse = successEnvelope(Reconciliation);
export type ReconciliationResponse = z.infer<typeof ReconciliationResponse>;
