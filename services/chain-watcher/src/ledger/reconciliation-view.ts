import { getAddress } from 'ethers';
import {
  baseUnitsToDecimal,
  type BlockchainName,
  type Currency,
  type Reconciliation,
} from '@stablepay/contracts';
import type { WatcherContext } from '../context/watcher-context.js';
import { latestCompleteRun, runWallets } from './reconciliation-repo.js';

/**
 * The latest finished reconciliation, as one merchant sees it: only that merchant's wallets, and the
 * discrepancies among them.
 */
export const latestReconciliation = async (
  ctx: WatcherContext,
  merchantId: string,
): Promise<Reconciliation> => {
  const run = await latestCompleteRun(ctx.db);
  if (!run) return { checked_at: null, wallets: [], discrepancies: 0 };
  const wallets = await runWallets(ctx.db, run.id, merchantId);
  return {
    checked_at: run.checkedAt.toISOString(),
    wallets: wallets.map((w) => ({
      blockchain: w.blockchain as BlockchainName,
      token: w.token as Currency,
      address: getAddress(w.address),
      block_number: w.blockNumber,
      ledger_balance: w.ledgerBalance === null ? null : baseUnitsToDecimal(w.ledgerBalance),
      onchain_balance: w.onchainBalance === null ? null : baseUnitsToDecimal(w.onchainBalance),
      difference:
        w.ledgerBalance === null || w.onchainBalance === null
          ? null
          : baseUnitsToDecimal(w.onchainBalance - w.ledgerBalance),
      status: w.status,
    })),
    discrepancies: wallets.filter((w) => w.status === 'discrepancy').length,
  };
};
