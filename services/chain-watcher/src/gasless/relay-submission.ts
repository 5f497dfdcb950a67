import { EventTypes } from '@stablepay/contracts';
import type { WatcherContext } from '../context/watcher-context.js';
import { GASLESS_RELAY_TRANSACTIONS } from '../migrations/tables.js';
import { broadcastSigned, estimateOrRevert } from '../relayer/broadcast.js';
import { followUnmined, minedOf, sameNonce, type UnminedProgress } from '../relayer/follow.js';
import { listRelayerTransactions, type RelayerTransaction } from '../relayer/relayer-transactions-repo.js';
import type { RelayerSeries } from '../relayer/series.js';
import { storeNewSigned } from '../relayer/sign.js';
import { lockGaslessPayment, noteRelayed, type GaslessPaymentRecord } from './gasless-repo.js';
import { crashAt, waitFor, type GaslessRoute, type GaslessWait } from './outcome.js';
import { encodeAuthorization, refusalOfRevert } from './submission.js';

/*
 * The relay's submission of a customer's authorization, sent by the relayer engine with the
 * guarantees of outgoing transfers: the nonce from the shared allocator, the signed bytes stored
 * before they are broadcast and sent again after a restart, a stuck one replaced with higher fees.
 * The token uses the authorization's nonce once, so no two of these transactions can both pay.
 */

export type SubmitAction = 'submit';
export type SubmissionTransaction = RelayerTransaction<SubmitAction>;

/** One look at a same-chain submission: the payment, its route, and the relay's transactions so far. */
export interface SubmissionLook {
  p: GaslessPaymentRecord;
  r: GaslessRoute;
  txs: SubmissionTransaction[];
}

/**
 * The node took the relay's transaction: chain.payment.relayed, once per payment (the first
 * transaction accepted; a replacement or a restart publishes nothing more).
 */
export const publishRelayed = async (
  ctx: WatcherContext,
  p: GaslessPaymentRecord,
  tx: Pick<SubmissionTransaction, 'txHash' | 'relayerAddress'>,
): Promise<void> => {
  await ctx.db.transaction(async (trx) => {
    if (!(await noteRelayed(trx, p.paymentId, tx.txHash))) return;
    await ctx.writeEvent(trx, EventTypes.ChainPaymentRelayed, p.merchantId, {
      paymentId: p.paymentId,
      merchantId: p.merchantId,
      chainId: p.chainId,
      txHash: tx.txHash,
      relayer: tx.relayerAddress,
    });
  });
};

/** The transactions submitting one payment's authorization, signed while it is being submitted. */
export const submissionSeries = (
  ctx: WatcherContext,
  p: GaslessPaymentRecord,
): RelayerSeries<SubmitAction> => ({
  table: GASLESS_RELAY_TRANSACTIONS,
  key: { payment_id: p.paymentId, action: 'submit' },
  stillWanted: async (trx) => (await lockGaslessPayment(trx, p.paymentId))?.step === 'submit',
  logFields: { paymentId: p.paymentId },
  afterBroadcast: () => crashAt(ctx, 'submission_broadcast'),
  onAccepted: (tx) => publishRelayed(ctx, p, tx),
});

export const listSubmissions = (
  ctx: WatcherContext,
  p: GaslessPaymentRecord,
): Promise<SubmissionTransaction[]> =>
  listRelayerTransactions<SubmitAction>(ctx.db, submissionSeries(ctx, p));

/**
 * Judges the submission now (eth_estimateGas from the relay) and, if it passes, signs, stores and
 * sends it: the first, or one under a new nonce after those the look found. A refusal is not final:
 * the payer may top up, a pause passes, and an authorization never used expires on its own.
 */
const sendSubmission = async (ctx: WatcherContext, { p, r, txs }: SubmissionLook): Promise<GaslessWait> => {
  const after = txs.length;
  const relayer = ctx.relayers.addressOn(r.chain.chainId);
  if (!relayer) return waitFor(`no relayer key for ${r.chain.name}`);
  const data = encodeAuthorization(p.authorization);
  const estimate = await estimateOrRevert(r.rpc, { from: relayer, to: r.token, data });
  if ('revert' in estimate) {
    const refused = refusalOfRevert(estimate.revert.message);
    if (refused.code === 'authorization_nonce_used') return waitFor('used meanwhile', { steady: true });
    return waitFor(`the token refuses the submission for now: ${refused.message}`);
  }
  const series = submissionSeries(ctx, p);
  const stored = await storeNewSigned(ctx, r.rpc, r.chain, series, {
    action: 'submit',
    kind: after ? 'renonce' : 'first',
    to: r.token,
    data,
    gasEstimate: estimate.gas,
    after,
  });
  if (!stored) return waitFor('another worker sends the submission', { steady: true });
  crashAt(ctx, 'submission_signed');
  await broadcastSigned(ctx, r.rpc, series, stored);
  return waitFor('submission sent', { steady: true });
};

const WAITING: Record<UnminedProgress['kind'], string> = {
  sent: 'submission sent',
  mined_meanwhile: 'mined just now',
  done_elsewhere: 'used elsewhere',
  renonced: 'signed under a new nonce',
  replaced: 'replaced with higher fees',
  behind: 'waiting behind an earlier relayer nonce',
};

/**
 * One look at a submission whose authorization is still unused: the first transaction is sent, or
 * the relayer engine follows those sent; one whose nonce was mined and reverted (a pause, say) is
 * answered with a new one once the token would take it.
 */
export const advanceSubmission = async (
  ctx: WatcherContext,
  look: SubmissionLook,
  stillUnused: () => Promise<boolean>,
): Promise<GaslessWait> => {
  const { p, r, txs } = look;
  if (txs.length === 0) return sendSubmission(ctx, look);
  const latest = txs.at(-1)!;
  const mined = await minedOf(r.rpc, txs);
  // A success used the authorization: the next look finds and settles it.
  if (mined.some((m) => m.receipt.status === 1)) return waitFor('submission mined', { steady: true });
  if (mined.some((m) => sameNonce(m.tx, latest))) return sendSubmission(ctx, look);
  const series = submissionSeries(ctx, p);
  const progress = await followUnmined(ctx, { rpc: r.rpc, chain: r.chain, series }, txs, {
    data: encodeAuthorization(p.authorization),
    doneElsewhere: async () => !(await stillUnused()),
  });
  return waitFor(WAITING[progress.kind], { steady: true });
};

/**
 * Once the authorization is spent, whoever spent it: the relay's latest transaction must still take
 * its nonce on the chain (mined, even reverting), or every later transaction of the relay would wait
 * behind it. Until then it is followed as any other (replaced when stuck); undefined once mined.
 */
export const settleOwnNonce = async (
  ctx: WatcherContext,
  { p, r, txs }: SubmissionLook,
): Promise<GaslessWait | undefined> => {
  const latest = txs.at(-1);
  if (!latest) return undefined;
  if ((await r.rpc.transactionCount(latest.relayerAddress, 'latest')) > latest.relayerNonce) return undefined;
  const series = submissionSeries(ctx, p);
  const progress = await followUnmined(ctx, { rpc: r.rpc, chain: r.chain, series }, txs, {
    data: encodeAuthorization(p.authorization),
    // Spent already: a nonce taken by another transaction needs no new one.
    doneElsewhere: () => Promise.resolve(true),
  });
  return waitFor(`the relay's own transaction takes its nonce first: ${WAITING[progress.kind]}`, {
    steady: true,
  });
};
