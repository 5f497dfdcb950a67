import { Transaction, type TypedDataField } from 'ethers';
import { baseUnitsToDecimal, type ChainConfig, type TransferFailureReason } from '@stablepay/contracts';
import type { ChainRpc } from '../../chain/chain-rpc.js';
import { balanceOf } from '../../chain/erc20.js';
import {
  CANCEL_AUTHORIZATION_TYPES,
  TRANSFER_WITH_AUTHORIZATION_TYPES,
  authorizationState,
  encodeCancelAuthorization,
  encodeTransferWithAuthorization,
  type TransferAuthorization,
} from '../../chain/fiat-token.js';
import type { AttemptRecord } from '../../db/attempts-repo.js';
import { markCancelling, markSending, type TransferRecord } from '../../db/transfers-repo.js';
import type { WatcherContext } from '../context.js';
import { broadcastAttempt, crashAt, storeAttempt, tokenDomain, type AttemptPlan } from './attempts.js';
import { recordFailed } from './outcomes.js';
import { feesOf, gasLimitFor, replacementFees } from './rules.js';

/** What the worker does with a transfer after a step. */
export type Step = { done: true } | { done: false; delayMs: number; note: string | null };

export const DONE: Step = { done: true };
export const again = (
  ctx: WatcherContext,
  note: string | null = null,
  delayMs = ctx.transfers.pollMs,
): Step => ({
  done: false,
  delayMs,
  note,
});

/** The parts of a transfer that exist once its request was accepted. */
export const parts = (t: TransferRecord) => {
  if (!t.fromAddress || !t.tokenAddress || t.amountUnits === null) {
    throw new Error(`transfer ${t.id} has no wallet, token or amount`);
  }
  return { from: t.fromAddress, token: t.tokenAddress, value: t.amountUnits };
};

const isRevert = (err: unknown): err is { reason?: string | null; shortMessage?: string } =>
  typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'CALL_EXCEPTION';

/** The node's gas estimate, or why the call would revert (an answer of the chain, not an RPC failure). */
const estimateOrRevert = async (
  rpc: ChainRpc,
  tx: { from: string; to: string; data: string },
): Promise<{ gas: bigint } | { revert: string }> => {
  try {
    return { gas: await rpc.estimateGas(tx) };
  } catch (err) {
    if (!isRevert(err)) throw err;
    return { revert: err.reason ?? err.shortMessage ?? 'execution reverted' };
  }
};

/** An EIP-712 signature of the merchant wallet on the transfer's token domain. */
const signAsWallet = async (
  ctx: WatcherContext,
  t: TransferRecord,
  rpc: ChainRpc,
  types: Record<string, TypedDataField[]>,
  value: Record<string, unknown>,
): Promise<string> =>
  ctx.signer.signTypedData(t.merchantId, await tokenDomain(ctx, rpc, parts(t).token), types, value);

/** Stores the first relayer transaction of an action: today's fees, the relayer's next nonce. */
const storeFirstAttempt = async (
  ctx: WatcherContext,
  t: TransferRecord,
  rpc: ChainRpc,
  chain: ChainConfig,
  relayer: string,
  gasEstimate: bigint,
  plan: Pick<AttemptPlan, 'action' | 'data' | 'expect' | 'after' | 'transition'>,
) => {
  const fees = feesOf(await rpc.feeSuggestion());
  const chainPending = await rpc.transactionCount(relayer, 'pending');
  return storeAttempt(ctx, t, chain, {
    ...plan,
    kind: 'first',
    gasLimit: gasLimitFor(gasEstimate),
    fees,
    nonce: { allocate: true, chainPending },
  });
};

/**
 * The first transaction of a transfer. Everything the chain can say against it is asked first
 * (balance, a nonce already spent, a simulated revert), so a transfer that cannot succeed fails
 * without costing gas. Then the merchant wallet signs the EIP-3009 authorization, and the relayer
 * transaction carrying it is signed and stored with its nonce before it is broadcast.
 */
export const sendFirst = async (
  ctx: WatcherContext,
  t: TransferRecord,
  rpc: ChainRpc,
  chain: ChainConfig,
  onSpent: () => Promise<Step>,
): Promise<Step> => {
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
      reason: `insufficient funds: the merchant wallet ${from} holds ${baseUnitsToDecimal(balance)} ${t.token} on ${chain.name}, the transfer needs ${baseUnitsToDecimal(value)} ${t.token}`,
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
  const signature = await signAsWallet(ctx, t, rpc, TRANSFER_WITH_AUTHORIZATION_TYPES, { ...auth });
  const data = encodeTransferWithAuthorization(auth, signature);
  const estimate = await estimateOrRevert(rpc, { from: relayer, to: token, data });
  if ('revert' in estimate) {
    await recordFailed(ctx, t, ['pending'], {
      code: 'reverted',
      reason: `the ${t.token} contract refuses the transfer: ${estimate.revert}`,
      txHash: null,
    });
    return DONE;
  }
  const attempt = await storeFirstAttempt(ctx, t, rpc, chain, relayer, estimate.gas, {
    action: 'transfer',
    data,
    expect: ['pending'],
    after: 0,
    transition: (trx) =>
      markSending(trx, t.id, { validBefore: auth.validBefore, signature, searchFromBlock: head }),
  });
  if (!attempt) return DONE; // another worker sent it
  crashAt(ctx, 'after_sign');
  await broadcastAttempt(ctx, t, rpc, attempt);
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
  t: TransferRecord,
  rpc: ChainRpc,
  chain: ChainConfig,
  attempts: AttemptRecord[],
  failure: { code: TransferFailureReason; reason: string; txHash: string },
): Promise<Step> => {
  const relayer = ctx.relayers.addressOn(chain.chainId);
  if (!relayer) throw new Error(`no relayer account is configured for ${chain.name}`);
  const { from, token } = parts(t);
  const signature = await signAsWallet(ctx, t, rpc, CANCEL_AUTHORIZATION_TYPES, {
    authorizer: from,
    nonce: t.authNonce,
  });
  const data = encodeCancelAuthorization(from, t.authNonce, signature);
  const estimate = await estimateOrRevert(rpc, { from: relayer, to: token, data });
  // Spent since the last look: the next pass finds by whom.
  if ('revert' in estimate) return again(ctx, 'authorization spent while cancelling', 0);
  const attempt = await storeFirstAttempt(ctx, t, rpc, chain, relayer, estimate.gas, {
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
  await broadcastAttempt(ctx, t, rpc, attempt);
  return again(ctx);
};

/**
 * Signs the latest attempt's calldata again: under the same nonce with every fee raised at least
 * 12.5% (a replacement, when it is stuck), or under a new nonce (when its nonce was taken by a
 * transaction that is not ours). Either way at most one of them can move the tokens: the nonce
 * makes attempts exclusive on the relayer side, the authorization nonce on the token side.
 */
export const resign = async (
  ctx: WatcherContext,
  t: TransferRecord,
  rpc: ChainRpc,
  chain: ChainConfig,
  attempts: AttemptRecord[],
  how: 'replacement' | 'renonce',
): Promise<AttemptRecord | undefined> => {
  const latest = attempts.at(-1)!;
  const relayer = ctx.relayers.addressOn(chain.chainId);
  if (!relayer || relayer !== latest.relayerAddress) {
    // The relayer key changed since: the stored bytes are all that can still go out.
    ctx.logger.warn('transfer attempt cannot be re-signed: its relayer key is no longer configured', {
      idempotencyKey: t.idempotencyKey,
      relayer: latest.relayerAddress,
    });
    return undefined;
  }
  const now = await rpc.feeSuggestion();
  const plan =
    how === 'replacement'
      ? { fees: replacementFees(latest, now), nonce: { reuse: latest.relayerNonce } }
      : {
          fees: feesOf(now),
          nonce: { allocate: true as const, chainPending: await rpc.transactionCount(relayer, 'pending') },
        };
  return storeAttempt(ctx, t, chain, {
    action: latest.action,
    kind: how,
    data: Transaction.from(latest.rawTx).data,
    gasLimit: latest.gasLimit,
    ...plan,
    expect: [t.status],
    after: attempts.length,
  });
};
