import type { ChainConfig } from '@stablepay/contracts';
import type { Knex } from 'knex';
import type { ChainRpc } from '../chain/chain-rpc.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { feesOf, gasLimitFor, type AttemptFees } from './fees.js';
import { allocateRelayerNonce } from './nonces-repo.js';
import {
  countRelayerTransactions,
  insertRelayerTransaction,
  type AttemptKind,
  type NewRelayerTransaction,
  type RelayerTransaction,
} from './relayer-transactions-repo.js';
import type { RelayerSeries } from './series.js';

export interface SignPlan<A extends string> {
  action: A;
  kind: AttemptKind;
  /** the contract called, and the calldata */
  to: string;
  data: string;
  gasLimit: bigint;
  fees: AttemptFees;
  /** a replacement reuses its nonce; anything else allocates one, never below the chain's count */
  nonce: { reuse: number } | { allocate: true; chainPending: number };
  /** how many transactions the series must have: a worker that lost a race stores nothing */
  after: number;
  /** a guarded state change of the owner committed with the transaction; false rolls all back */
  transition?: (trx: Knex.Transaction) => Promise<boolean>;
}

class PlanStale extends Error {}

const signPlan = <A extends string>(
  ctx: WatcherContext,
  chain: ChainConfig,
  relayer: string,
  nonce: number,
  plan: SignPlan<A>,
): NewRelayerTransaction<A> => {
  const legacy = plan.fees.gasPrice !== null;
  const signed = ctx.relayers.sign(chain.chainId, {
    type: legacy ? 0 : 2,
    nonce,
    to: plan.to,
    data: plan.data,
    value: 0n,
    gasLimit: plan.gasLimit,
    ...(legacy
      ? { gasPrice: plan.fees.gasPrice }
      : { maxFeePerGas: plan.fees.maxFeePerGas, maxPriorityFeePerGas: plan.fees.maxPriorityFeePerGas }),
  });
  return {
    action: plan.action,
    attempt: plan.after + 1,
    kind: plan.kind,
    chainId: chain.chainId,
    relayerAddress: relayer,
    relayerNonce: nonce,
    toAddress: plan.to,
    txHash: signed.hash!.toLowerCase(),
    rawTx: signed.serialized,
    gasLimit: plan.gasLimit,
    ...plan.fees,
  };
};

/**
 * Allocates the nonce, signs the relayer transaction and stores it, in one database transaction
 * under the owner's row lock and with no RPC inside: once this commits, the exact bytes exist and
 * whoever holds the owner next broadcasts them, even if this process dies now. Undefined when
 * another worker got there first.
 */
export const storeSigned = async <A extends string>(
  ctx: WatcherContext,
  chain: ChainConfig,
  series: RelayerSeries<A>,
  plan: SignPlan<A>,
): Promise<RelayerTransaction<A> | undefined> => {
  const relayer = ctx.relayers.addressOn(chain.chainId);
  if (!relayer) throw new Error(`no relayer key for ${chain.name}`);
  let stored: NewRelayerTransaction<A>;
  try {
    stored = await ctx.db.transaction(async (trx) => {
      if (!(await series.stillWanted(trx))) throw new PlanStale();
      if ((await countRelayerTransactions(trx, series)) !== plan.after) throw new PlanStale();
      const nonce =
        'reuse' in plan.nonce
          ? plan.nonce.reuse
          : await allocateRelayerNonce(trx, chain.chainId, relayer, plan.nonce.chainPending);
      const tx = signPlan(ctx, chain, relayer, nonce, plan);
      await insertRelayerTransaction(trx, series, tx);
      if (plan.transition && !(await plan.transition(trx))) throw new PlanStale();
      return tx;
    });
  } catch (err) {
    if (err instanceof PlanStale) return undefined;
    throw err;
  }
  series.onSigned?.(stored, chain);
  ctx.logger.info('relayer transaction signed', {
    ...series.logFields,
    chain: chain.name,
    attempt: stored.attempt,
    kind: plan.kind,
    action: plan.action,
    relayerNonce: stored.relayerNonce,
    txHash: stored.txHash,
  });
  return { ...stored, signedAt: new Date(), broadcastAt: null, lastBroadcastError: null };
};

/** A new transaction of an action (not a replacement): today's fees, the relayer's next nonce. */
export const storeNewSigned = async <A extends string>(
  ctx: WatcherContext,
  rpc: ChainRpc,
  chain: ChainConfig,
  series: RelayerSeries<A>,
  tx: Pick<SignPlan<A>, 'action' | 'kind' | 'to' | 'data' | 'after' | 'transition'> & { gasEstimate: bigint },
): Promise<RelayerTransaction<A> | undefined> => {
  const relayer = ctx.relayers.addressOn(chain.chainId);
  if (!relayer) throw new Error(`no relayer key for ${chain.name}`);
  const fees = feesOf(await rpc.feeSuggestion());
  const chainPending = await rpc.transactionCount(relayer, 'pending');
  const { gasEstimate, ...plan } = tx;
  return storeSigned(ctx, chain, series, {
    ...plan,
    gasLimit: gasLimitFor(gasEstimate),
    fees,
    nonce: { allocate: true, chainPending },
  });
};
