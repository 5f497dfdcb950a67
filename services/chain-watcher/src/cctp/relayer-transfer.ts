import { EventTypes, baseUnitsToDecimal } from '@stablepay/contracts';
import { Transaction, getAddress, keccak256, toUtf8Bytes } from 'ethers';
import { decodeTransfer } from '../chain/erc20.js';
import {
  TRANSFER_WITH_AUTHORIZATION_TYPES,
  authorizationState,
  blacklisted,
  encodeTransferWithAuthorization,
  findAuthorizationEvent,
  tokenRefusal,
} from '../chain/fiat-token.js';
import { advanceCctp, type CctpPaymentRecord } from './cctp-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { tokenDomain } from '../relayer/token-domain.js';
import { amountText, pausedNote } from '../transfers/rules.js';
import { fail, waitFor, type CctpOutcome } from './burn-rules.js';
import { relayKeyHeld, type RelayRoute } from './relayer-route.js';
import { bookCctpPayment, deepEnough } from './steps.js';
import { estimateOrRevert } from '../relayer/broadcast.js';
import {
  advanceRelayAction,
  minedRelayTransactions,
  sendRelayTransaction,
  type RelayTransaction,
} from './relay-series.js';

/**
 * The EIP-3009 nonce of a payment's transfer from the relay wallet: every authorization ever signed
 * for the payment carries it, so the token moves the funds at most once, whatever was retried.
 */
export const relayAuthorizationNonce = (paymentId: string): string =>
  keccak256(toUtf8Bytes(`stablepay:cctp-relay:${paymentId}`));

const usdcOf = (r: RelayRoute) => getAddress(r.destination.tokens.USDC!);

/** Why the token refuses the relay's transfer for good; paused (temporary) is answered before. */
const refusalReason = async (r: RelayRoute, kind: string, message: string, value: bigint) => {
  if (kind === 'blacklisted') {
    const listed = (await blacklisted(r.destinationRpc, usdcOf(r), [r.relay, r.merchant])) ?? [];
    const who = listed.length > 0 ? listed.join(' and ') : `${r.relay} or ${r.merchant}`;
    return `the USDC contract on ${r.destination.name} refuses the transfer to the merchant wallet ${r.merchant}: ${who} is on the issuer's blacklist`;
  }
  if (kind === 'insufficient_balance') {
    return `the relay wallet ${r.relay} holds less than the ${amountText(value, 'USDC')} due to the merchant`;
  }
  return `the USDC contract on ${r.destination.name} refuses the transfer to the merchant: ${message}`;
};

/**
 * Signs a fresh authorization (relay → merchant, merchantReceives) and sends it, after asking the
 * token what it says to it: paused, the payment waits (a pause passes); refused for good, it fails
 * with the token's reason and nothing is sent.
 */
const sendTransfer = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  r: RelayRoute,
  after: number,
): Promise<CctpOutcome> => {
  const value = p.merchantReceivesUnits!;
  if (!relayKeyHeld(ctx, r))
    return fail('transfer_failed', `the key of the relay wallet ${r.relay} is no longer configured`);
  if (p.mintedUnits !== null && p.mintedUnits < value) {
    return fail(
      'underpaid',
      `the mint delivered ${amountText(p.mintedUnits, 'USDC')} to the relay wallet; the merchant is due ${amountText(value, 'USDC')}`,
    );
  }
  const rpc = r.destinationRpc;
  const token = usdcOf(r);
  const auth = {
    from: r.relay,
    to: r.merchant,
    value,
    validAfter: 0n,
    validBefore: BigInt(Math.floor((Date.now() + ctx.transfers.authorizationTtlMs) / 1000)),
    nonce: relayAuthorizationNonce(p.paymentId),
  };
  const signature = ctx.relayers.signTypedData(
    r.destination.chainId,
    await tokenDomain(ctx, rpc, token),
    TRANSFER_WITH_AUTHORIZATION_TYPES,
    { ...auth },
  );
  const data = encodeTransferWithAuthorization(auth, signature);
  const estimate = await estimateOrRevert(rpc, { from: r.relay, to: token, data });
  if ('revert' in estimate) {
    const refusal = tokenRefusal(estimate.revert);
    if (refusal.kind === 'paused') return waitFor(pausedNote('USDC', r.destination.name));
    if (refusal.kind === 'authorization_spent') return waitFor('transferred meanwhile', { steady: true });
    return fail('transfer_failed', await refusalReason(r, refusal.kind, refusal.message, value));
  }
  return sendRelayTransaction(ctx, p, rpc, r.destination, {
    action: 'transfer',
    to: token,
    data,
    gasEstimate: estimate.gas,
    after,
  });
};

/**
 * The authorization is spent: the transfer happened (only this service signs for the relay wallet,
 * always for this payment under this nonce). Its transaction is found, checked and recorded.
 */
const settleTransfer = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  r: RelayRoute,
  txs: RelayTransaction[],
): Promise<CctpOutcome | undefined> => {
  const rpc = r.destinationRpc;
  const value = p.merchantReceivesUnits!;
  const mined = await minedRelayTransactions(ctx, p, rpc, txs);
  let txHash = mined.find((m) => m.receipt.status === 1)?.tx.txHash;
  if (!txHash) {
    const head = await rpc.blockNumber();
    const found = await findAuthorizationEvent(rpc, {
      token: usdcOf(r),
      authorizer: r.relay,
      nonce: relayAuthorizationNonce(p.paymentId),
      fromBlock: p.mintBlock ?? p.mintSearchFrom ?? 0,
      toBlock: head,
      maxBlocks: ctx.transfers.logWindowBlocks,
    });
    if (found?.kind === 'canceled')
      return fail('transfer_failed', `the relay's authorization was cancelled (transaction ${found.txHash})`);
    txHash = found?.txHash;
  }
  if (!txHash) return waitFor('the authorization is spent; its transaction is not found yet');
  const receipt = await rpc.receipt(txHash);
  if (!receipt) return waitFor('transfer receipt not readable yet');
  const paid = receipt.logs
    .map(decodeTransfer)
    .find(
      (t) =>
        t?.token === usdcOf(r) && t.from === r.relay && t.to === getAddress(r.merchant) && t.value === value,
    );
  if (!paid)
    return fail(
      'transfer_failed',
      `transaction ${txHash} spent the authorization without paying the merchant`,
    );
  if (!(await deepEnough(rpc, r.destination, receipt.blockNumber)))
    return waitFor('transfer confirmations', { steady: true });
  const transferTxHash = txHash;
  await ctx.db.transaction(async (trx) => {
    const moved = await advanceCctp(trx, p.paymentId, 'transfer', 'done', {
      transferTxHash,
      transferBlock: receipt.blockNumber,
    });
    if (!moved) return;
    await bookCctpPayment(trx, p, r.destination, r.merchant, {
      txHash: transferTxHash,
      logIndex: paid.logIndex,
      amount: value,
      blockNumber: receipt.blockNumber,
    });
    await ctx.writeEvent(trx, EventTypes.ChainCctpTransferred, p.merchantId, {
      paymentId: p.paymentId,
      transferTxHash,
      toAddress: r.merchant,
      amount: baseUnitsToDecimal(value),
      blockNumber: receipt.blockNumber,
      ...(p.burnedUnits !== null && p.burnedUnits >= value
        ? { cctpFeeAmount: baseUnitsToDecimal(p.burnedUnits - value) }
        : {}),
    });
  });
  ctx.logger.info('relay paid the merchant', { paymentId: p.paymentId, txHash: transferTxHash });
  return undefined;
};

/**
 * Transfer step: merchantReceives from the relay wallet to the merchant wallet, as an EIP-3009
 * authorization of the relay submitted by the relay itself. The authorization nonce is asked first,
 * before sending and after any restart: once spent, the transfer is found rather than sent again.
 */
export const advanceRelayTransfer = (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  r: RelayRoute,
): Promise<CctpOutcome | undefined> =>
  advanceRelayAction(
    ctx,
    p,
    { rpc: r.destinationRpc, chain: r.destination },
    {
      action: 'transfer',
      doneOnChain: () =>
        authorizationState(r.destinationRpc, usdcOf(r), r.relay, relayAuthorizationNonce(p.paymentId)),
      settle: (txs) => settleTransfer(ctx, p, r, txs),
      calldata: (txs) => Transaction.from(txs.at(-1)!.rawTx).data,
      // Reverted with the authorization unused (a pause, an expired authorization, a blacklisting): a
      // fresh authorization is judged and, if it passes, sent under a new nonce.
      send: (after) => sendTransfer(ctx, p, r, after),
    },
  );
