import type { Knex } from 'knex';
import { chainById } from '@stablepay/contracts';
import { afterCommit } from '@stablepay/platform';
import type { WatcherContext } from '../context/watcher-context.js';
import { outgoingKind } from '../ledger/journals.js';
import { TRANSFER_ATTEMPTS } from '../migrations/tables.js';
import { gasPaidBy, minedOf } from '../relayer/follow.js';
import { listRelayerTransactions } from '../relayer/relayer-transactions-repo.js';
import type { TransferRecord } from '../transfers/transfers-repo.js';
import { recordRelayGas } from './gas-budget-repo.js';
import { lockGaslessPayment } from './gasless-repo.js';
import { countGasSpent } from './relay-gas.js';

/*
 * The transfer that collects a merchant-borne network fee (merchant wallet → relay) is sent by the
 * relayer like any transfer, so the relay pays its gas too: it counts against the merchant's daily
 * relay gas budget on its chain, and in the payment's figure for that chain, once, in the
 * transaction that finishes the transfer.
 */

/** The gasless payment whose network fee a transfer collects, from its idempotency key. */
const paymentOfFee = (t: Pick<TransferRecord, 'purpose' | 'idempotencyKey'>): string | undefined =>
  t.purpose === 'network_fee' ? outgoingKind(t.purpose, t.idempotencyKey)?.paymentId : undefined;

/** What the relayer paid for a network-fee transfer's mined transactions (0 for any other transfer). */
export const networkFeeGasPaid = async (ctx: WatcherContext, t: TransferRecord): Promise<bigint> => {
  const rpc = t.chainId === null ? undefined : ctx.chains.get(t.chainId);
  if (!paymentOfFee(t) || !rpc) return 0n;
  const attempts = await listRelayerTransactions(ctx.db, {
    table: TRANSFER_ATTEMPTS,
    key: { transfer_id: t.id },
    fixedTo: t.tokenAddress ?? undefined,
  });
  return gasPaidBy(await minedOf(rpc, attempts));
};

/**
 * Records `wei` against the merchant's day and the payment, in the transfer's final transaction,
 * and in the relay's spending metric once that commits.
 */
export const recordNetworkFeeGas = async (
  ctx: WatcherContext,
  trx: Knex.Transaction,
  t: TransferRecord,
  wei: bigint,
): Promise<void> => {
  const paymentId = paymentOfFee(t);
  const chain = t.chainId === null ? undefined : chainById(ctx.registry, t.chainId);
  if (!paymentId || wei === 0n || !chain) return;
  const p = await lockGaslessPayment(trx, paymentId);
  if (!p) return;
  await recordRelayGas(trx, p, chain.chainId, wei);
  afterCommit(trx, () => countGasSpent(ctx, p, chain, wei));
};
