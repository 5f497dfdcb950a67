import type { Knex } from 'knex';
import type { ChainConfig } from '@stablepay/contracts';
import { formatEther } from 'ethers';
import type { ChainRpc } from '../chain/chain-rpc.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { gasPaidBy, minedOf } from '../relayer/follow.js';
import { listRelayerTransactions } from '../relayer/relayer-transactions-repo.js';
import { recordRelayGas } from './gas-budget-repo.js';
import type { GaslessPaymentRecord } from './gasless-repo.js';
import { crossChainSeries, type CrossChainAction } from './relay-steps.js';

/*
 * What the relay paid in gas for one gasless payment: every transaction of its own that a block
 * holds, reverted ones included (a reverted transaction is paid for too). Across chains that is the
 * submission, the approval and the burn on the customer's chain and the mint on the merchant's; each
 * counts against the merchant's daily budget on the chain that charged it, and in the payment's
 * figure for that chain (wei of different chains' coins are never added together).
 */

export { gasPaidBy };

/** What the relay's mined transactions of `actions` (on the chain of `rpc`) cost. */
export const crossChainGasPaid = async (
  ctx: WatcherContext,
  p: GaslessPaymentRecord,
  rpc: ChainRpc,
  actions: CrossChainAction[],
): Promise<bigint> => {
  let wei = 0n;
  for (const action of actions) {
    const txs = await listRelayerTransactions<CrossChainAction>(ctx.db, crossChainSeries(ctx, p, action));
    if (txs.length) wei += gasPaidBy(await minedOf(rpc, txs));
  }
  return wei;
};

/**
 * Gas a cross-chain step spent, recorded in the transaction of its transition: on the merchant's
 * day of `chain` (the day the payment reserved its submission) and in the payment's figure for it.
 */
export const recordStepGas = (
  trx: Knex.Transaction,
  p: GaslessPaymentRecord,
  chainId: number,
  wei: bigint,
): Promise<void> => recordRelayGas(trx, p, chainId, wei);

/** The relay's spending metric, in the chain's native coin. */
export const countGasSpent = (
  ctx: WatcherContext,
  p: GaslessPaymentRecord,
  chain: ChainConfig,
  wei: bigint,
) => {
  if (wei > 0n)
    ctx.metrics.gaslessGasSpent.inc({ chain: chain.name, merchant: p.merchantId }, Number(formatEther(wei)));
};
