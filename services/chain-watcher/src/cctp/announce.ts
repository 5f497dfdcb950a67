import type { Knex } from 'knex';
import { EventTypes, baseUnitsToDecimal, type ChainConfig } from '@stablepay/contracts';
import type { WatcherContext } from '../context/watcher-context.js';
import type { CctpPaymentRecord } from './cctp-repo.js';

/*
 * The events both flows publish as a payment moves on, written in the transaction that moved it.
 * Each names the payment and the flow it follows, so one writer serves the relayer and bridge-kit.
 */

/** What every cross-chain step event carries first (the contracts' `stepOf`). */
const stepOf = (p: CctpPaymentRecord) => ({ paymentId: p.paymentId, flow: p.flow });

/** chain.cctp.burn_verified: the burn is deep enough on its source chain; the mint goes to `mintRecipient`. */
export const announceBurnVerified = (
  ctx: WatcherContext,
  trx: Knex.Transaction,
  p: CctpPaymentRecord,
  burn: {
    source: ChainConfig;
    destinationDomain: number;
    amount: bigint;
    blockNumber: number;
    mintRecipient: string;
  },
): Promise<void> =>
  ctx.writeEvent(trx, EventTypes.ChainCctpBurnVerified, p.merchantId, {
    ...stepOf(p),
    burnTxHash: p.burnTxHash,
    sourceChainId: burn.source.chainId,
    sourceDomain: burn.source.cctpDomain,
    destinationDomain: burn.destinationDomain,
    amount: baseUnitsToDecimal(burn.amount),
    mintRecipient: burn.mintRecipient,
    blockNumber: burn.blockNumber,
  });

/** chain.cctp.minted: the burn's USDC was minted to `recipient` on the destination chain. */
export const announceMinted = (
  ctx: WatcherContext,
  trx: Knex.Transaction,
  p: CctpPaymentRecord,
  mint: { destination: ChainConfig; txHash: string; recipient: string; minted: bigint; blockNumber: number },
): Promise<void> =>
  ctx.writeEvent(trx, EventTypes.ChainCctpMinted, p.merchantId, {
    ...stepOf(p),
    mintTxHash: mint.txHash,
    destinationChainId: mint.destination.chainId,
    recipient: mint.recipient,
    mintedAmount: baseUnitsToDecimal(mint.minted),
    blockNumber: mint.blockNumber,
  });
