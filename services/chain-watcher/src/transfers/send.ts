import type { TypedDataField } from 'ethers';
import type { TransferFailureReason } from '@stablepay/contracts';
import type { ChainRpc } from '../chain/chain-rpc.js';
import { balanceOf } from '../chain/erc20.js';
import {
  CANCEL_AUTHORIZATION_TYPES,
  TRANSFER_WITH_AUTHORIZATION_TYPES,
  authorizationState,
  encodeCancelAuthorization,
  encodeTransferWithAuthorization,
  tokenRefusal,
  type TokenRefusal,
  type TransferAuthorization,
} from '../chain/fiat-token.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { broadcastSigned, estimateOrRevert } from '../relayer/broadcast.js';
import { storeNewSigned, type SignPlan } from '../relayer/sign.js';
import { tokenDomain } from '../relayer/token-domain.js';
import { crashAt, transferSeries, type AttemptAction, type AttemptRecord } from './attempts.js';
import { recordFailed } from './outcomes.js';
import { judgeRefusal, waitOnToken } from './refusals.js';
import { insufficientFundsReason, pausedNote } from './rules.js';
import { markCancelling, markSending, type TransferStatus } from './transfers-repo.js';
import { DONE, again, parts, type Step, type TransferOnChain } from './steps.js';

/**
 * The node's gas estimate, or the token's refusal (an answer of the chain, not an RPC failure: those
 * are thrown).
 */
const estimateOrRefusal = async (
  rpc: ChainRpc,
  tx: { from: string; to: string; data: string },
): Promise<{ gas: bigint } | { refusal: TokenRefusal }> => {
  const estimate = await estimateOrRevert(rpc, tx);
  return 'revert' in estimate ? { refusal: tokenRefusal(estimate.revert) } : estimate;
};

/** An EIP-712 signature of the merchant wallet on the transfer's token domain. */
const signAsWallet = async (
  ctx: WatcherContext,
  { t, rpc }: TransferOnChain,
  types: Record<string, TypedDataField[]>,
  value: Record<string, unknown>,
): Promise<string> =>
  ctx.signer.signTypedData(t.merchantId, await tokenDomain(ctx, rpc, parts(t).token), types, value);

/** Stores the first relayer transaction of an action: today's fees, the relayer's next nonce. */
const storeFirstAttempt = (
  ctx: WatcherContext,
  { t, rpc, chain }: TransferOnChain,
  gasEstimate: bigint,
  plan: { action: AttemptAction; data: string; expect: TransferStatus[]; after: number } & Pick<
    SignPlan<AttemptAction>,
    'transition'
  >,
) => {
  const { expect, ...rest } = plan;
  return storeNewSigned(ctx, rpc, chain, transferSeries(ctx, t, expect), {
    ...rest,
    kind: 'first',
    to: parts(t).token,
    gasEstimate,
  });
};

/**
 * The first transaction of a transfer. Everything the chain can say against it is asked first
 * (balance, a nonce already spent, a simulated revert), so a transfer that cannot succeed fails
 * without costing gas, and one that cannot succeed yet (its token paused) waits without costing
 * any. Then the merchant wallet signs the EIP-3009 authorization, and the relayer transaction
 * carrying it is signed and stored with its nonce before it is broadcast.
 */
export const sendFirst = async (
  ctx: WatcherContext,
  job: TransferOnChain,
  onSpent: () => Promise<Step>,
): Promise<Step> => {
  const { t, rpc, chain } = job;
  const relayer = ctx.relayers.addressOn(chain.chainId);
  if (!relayer) {
    await recordFailed(ctx, t, ['pending'], {
      code: 'chain_unavailable',
      reason: `no relayer account is configured for ${chain.name}`,
      txHash: null,
    });
    return DONE;
  }
  const { from, token, value } = parts(t);
  const balance = await balanceOf(rpc, token, from);
  if (balance < value) {
    await recordFailed(ctx, t, ['pending'], {
      code: 'insufficient_funds',
      reason: insufficientFundsReason({
        wallet: from,
        balance,
        value,
        token: t.token,
        chain: chain.name,
        mined: false,
      }),
      txHash: null,
    });
    return DONE;
  }
  // Spent before anything was signed here: either this key's transfer already happened (a
  // restored database) or the wallet's key cancelled it. The chain's logs tell which.
  if (await authorizationState(rpc, token, from, t.authNonce)) return onSpent();

  const head = await rpc.blockNumber();
  const auth: TransferAuthorization = {
    from,
    to: t.toAddress,
    value,
    validAfter: 0n,
    validBefore: BigInt(Math.floor((Date.now() + ctx.transfers.authorizationTtlMs) / 1000)),
    nonce: t.authNonce,
  };
  const signature = await signAsWallet(ctx, job, TRANSFER_WITH_AUTHORIZATION_TYPES, { ...auth });
  const data = encodeTransferWithAuthorization(auth, signature);
  const estimate = await estimateOrRefusal(rpc, { from: relayer, to: token, data });
  if ('refusal' in estimate) {
    // Spent between the look above and the estimate: the same as spent before.
    if (estimate.refusal.kind === 'authorization_spent') return onSpent();
    const verdict = await judgeRefusal(job, estimate.refusal);
    if (verdict.kind === 'wait') return waitOnToken(ctx, t, verdict.note);
    await recordFailed(ctx, t, ['pending'], { code: verdict.code, reason: verdict.reason, txHash: null });
    return DONE;
  }
  const attempt = await storeFirstAttempt(ctx, job, estimate.gas, {
    action: 'transfer',
    data,
    expect: ['pending'],
    after: 0,
    transition: (trx) =>
      markSending(trx, t.id, { validBefore: auth.validBefore, signature, searchFromBlock: head }),
  });
  if (!attempt) return DONE; // another worker sent it
  crashAt(ctx, 'after_sign');
  await broadcastSigned(ctx, rpc, transferSeries(ctx, t), attempt);
  return again(ctx);
};

/**
 * The transfer transaction reverted and the authorization is still unused. Its signature is public
 * now (in the reverted calldata) and stays valid until validBefore: anyone could still submit it,
 * after the requester has been told it failed. So the authorization is cancelled on-chain first
 * (cancelAuthorization, signed by the merchant wallet, sent by the relayer), and the failure is
 * published once that cancellation is mined.
 */
export const beginCancel = async (
  ctx: WatcherContext,
  job: TransferOnChain,
  attempts: AttemptRecord[],
  failure: { code: TransferFailureReason; reason: string; txHash: string },
): Promise<Step> => {
  const { t, rpc, chain } = job;
  const relayer = ctx.relayers.addressOn(chain.chainId);
  if (!relayer) throw new Error(`no relayer account is configured for ${chain.name}`);
  const { from, token } = parts(t);
  const signature = await signAsWallet(ctx, job, CANCEL_AUTHORIZATION_TYPES, {
    authorizer: from,
    nonce: t.authNonce,
  });
  const data = encodeCancelAuthorization(from, t.authNonce, signature);
  const estimate = await estimateOrRefusal(rpc, { from: relayer, to: token, data });
  if ('refusal' in estimate) {
    // A paused token refuses cancellations too: the transfer waits, its failure not yet published.
    if (estimate.refusal.kind === 'paused') return waitOnToken(ctx, t, pausedNote(t.token, chain.name));
    // Spent since the last look: the next pass finds by whom.
    if (estimate.refusal.kind === 'authorization_spent')
      return again(ctx, 'authorization spent while cancelling', 0);
    return waitOnToken(
      ctx,
      t,
      `the ${t.token} contract refuses the cancellation: ${estimate.refusal.message}`,
    );
  }
  const attempt = await storeFirstAttempt(ctx, job, estimate.gas, {
    action: 'cancel',
    data,
    expect: ['sending'],
    after: attempts.length,
    transition: (trx) => markCancelling(trx, t.id, failure),
  });
  if (!attempt) return again(ctx);
  ctx.logger.warn('transfer reverted: cancelling its authorization', {
    idempotencyKey: t.idempotencyKey,
    chain: chain.name,
    txHash: failure.txHash,
    reason: failure.reason,
  });
  await broadcastSigned(ctx, rpc, transferSeries(ctx, t), attempt);
  return again(ctx);
};
