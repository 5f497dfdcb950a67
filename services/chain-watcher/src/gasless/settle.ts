import type { Knex } from 'knex';
import { EventTypes } from '@stablepay/contracts';
import { ZeroHash } from 'ethers';
import type { AuthorizationEvent } from '../chain/fiat-token.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { flushUnsent } from '../relayer/broadcast.js';
import { gasPaidBy, minedOf } from '../relayer/follow.js';
import { lockTransaction, markMatched } from '../verification/unclaimed-repo.js';
import { insertVerification } from '../verification/verifications-repo.js';
import { addGasUsage } from './gas-budget-repo.js';
import { requestNetworkFee } from './network-fee.js';
import { countGasSpent } from './relay-gas.js';
import { finishSubmission, moveGasless, noteRelayed, type GaslessPaymentRecord } from './gasless-repo.js';
import { submissionSeries, type SubmissionLook } from './relay-submission.js';

/*
 * How a submission ends: the authorization used (by the relay's transaction or anyone's), and the
 * payment handed to verification with the transaction that used it; or never used before it
 * expired (or cancelled by the payer), and the payment rejected. Either way the relay's gas is
 * settled against the merchant's day, in the transaction of the transition.
 */

/** What the relay's mined transactions cost, once any stored but unsent one reached a node. */
const relayGasSpent = async (
  ctx: WatcherContext,
  { p, r, txs }: SubmissionLook,
): Promise<{ wei: bigint; minedHashes: Set<string> }> => {
  // A nonce the relay allocated must reach the chain even when its transaction is no longer needed.
  await flushUnsent(ctx, r.rpc, submissionSeries(ctx, p), txs);
  const mined = await minedOf(r.rpc, txs);
  const wei = gasPaidBy(mined);
  return { wei, minedHashes: new Set(mined.map((m) => m.tx.txHash)) };
};

/** The reservation released and the spending recorded, on the day the payment reserved. */
const settleGas = (trx: Knex.Transaction, p: GaslessPaymentRecord, spentWei: bigint) =>
  addGasUsage(
    trx,
    { merchantId: p.merchantId, chainId: p.chainId, day: p.budgetDay },
    { reservedWei: -p.reservedWei, spentWei },
  );

const afterSettled = (
  ctx: WatcherContext,
  { p, r }: SubmissionLook,
  outcome: string,
  spentWei: bigint,
): void => {
  ctx.metrics.gaslessSubmissions.inc({ chain: r.chain.name, outcome });
  countGasSpent(ctx, p, r.chain, spentWei);
  ctx.logger.info('gasless submission settled', { paymentId: p.paymentId, chain: r.chain.name, outcome });
};

/**
 * Across chains the relay received the authorization's value: it burns all of it but the network
 * fee the customer paid it for its gas, and the merchant is owed the burn less Circle's fee.
 */
const burnFactsOf = (p: GaslessPaymentRecord) => {
  const burnUnits = p.authorization.value - (p.feeBearer === 'customer' ? p.networkFeeUnits : 0n);
  return { burnUnits, merchantReceivesUnits: burnUnits - p.cctpFeeUnits };
};

/** Same chain: the transaction is judged like any payment's (Transfer, amount, confirmations, reorgs). */
const handToVerification = async (
  trx: Knex.Transaction,
  p: GaslessPaymentRecord,
  found: AuthorizationEvent,
) => {
  await lockTransaction(trx, p.chainId, found.txHash);
  await insertVerification(trx, {
    paymentId: p.paymentId,
    merchantId: p.merchantId,
    txHash: found.txHash,
    chainId: p.chainId,
    sourceChain: p.sourceChain,
    token: p.token,
    fromAddress: p.authorization.from,
    toAddress: p.authorization.to,
    expectedUnits: p.expectedUnits,
    sessionCreatedAt: p.sessionCreatedAt,
    paymentCreatedAt: p.paymentCreatedAt,
  });
  await markMatched(trx, p.chainId, found.txHash, p.paymentId);
};

/**
 * The authorization was used by `found`'s transaction: the payment becomes a verification of that
 * transaction, which the verifier judges like any same-chain payment (the Transfer to the merchant
 * wallet, the amount, confirmations, reorgs) and publishes chain.payment.verified or rejected for.
 */
export const handOver = async (
  ctx: WatcherContext,
  look: SubmissionLook,
  found: AuthorizationEvent,
): Promise<void> => {
  const { p, r, txs } = look;
  const { wei, minedHashes } = await relayGasSpent(ctx, look);
  const ours = txs.find((t) => t.txHash === found.txHash);
  const crossChain = p.destinationChainId !== null;
  const moved = await ctx.db.transaction(async (trx) => {
    if (
      !(await finishSubmission(trx, p.paymentId, crossChain ? 'burn' : 'handed_over', {
        usedTxHash: found.txHash,
        gasSpentWei: wei,
      }))
    )
      return false;
    await settleGas(trx, p, wei);
    // Ours, mined before a node was known to hold it (a restart in between): relayed is still due.
    if (ours && minedHashes.has(ours.txHash) && (await noteRelayed(trx, p.paymentId, ours.txHash))) {
      await ctx.writeEvent(trx, EventTypes.ChainPaymentRelayed, p.merchantId, {
        paymentId: p.paymentId,
        merchantId: p.merchantId,
        chainId: p.chainId,
        txHash: ours.txHash,
        relayer: ours.relayerAddress,
      });
    }
    if (crossChain) return moveGasless(trx, p.paymentId, 'burn', 'burn', burnFactsOf(p));
    await handToVerification(trx, p, found);
    // The relay's own transaction paid the gas: a merchant who bears it pays it back.
    if (ours) await requestNetworkFee(ctx, trx, p, r.chain, p.token);
    return true;
  });
  if (moved) afterSettled(ctx, look, ours ? 'relayed' : 'used_elsewhere', wei);
};

/**
 * Nothing used the authorization and nothing can any more (expired unused, or cancelled by the
 * payer): chain.payment.rejected. The rejection names the relay's latest transaction when there is
 * one (the payment's tx_hash is a transaction hash); the detail says what happened.
 */
export const rejectUnused = async (
  ctx: WatcherContext,
  look: SubmissionLook,
  why: { outcome: 'expired' | 'cancelled'; detail: string; txHash?: string },
): Promise<void> => {
  const { p, txs } = look;
  const { wei } = await relayGasSpent(ctx, look);
  const moved = await ctx.db.transaction(async (trx) => {
    if (
      !(await finishSubmission(trx, p.paymentId, 'rejected', { failureDetail: why.detail, gasSpentWei: wei }))
    )
      return false;
    await settleGas(trx, p, wei);
    await ctx.writeEvent(trx, EventTypes.ChainPaymentRejected, p.merchantId, {
      paymentId: p.paymentId,
      txHash: why.txHash ?? txs.at(-1)?.txHash ?? ZeroHash,
      reason: 'tx_not_found',
      receivedAmount: null,
      detail: why.detail,
    });
    return true;
  });
  if (moved) afterSettled(ctx, look, why.outcome, wei);
};
