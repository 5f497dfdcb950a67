import type { Knex } from 'knex';
import { EventTypes, chainById, type CctpFailureReason, type ChainConfig } from '@stablepay/contracts';
import { errorText } from '@stablepay/platform';
import { getAddress } from 'ethers';
import { AttestationUnavailable } from '../chain/attestation-api.js';
import { decodeDepositForBurn, type DepositForBurn } from '../chain/cctp.js';
import type { ChainRpc } from '../chain/chain-rpc.js';
import { RpcUnavailableError } from '../chain/rpc-errors.js';
import type { ReceiptFacts } from '../chain/rpc-facts.js';
import { advanceCctp, rescheduleCctp, type CctpPaymentRecord } from './cctp-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { recordPaymentIn } from '../ledger/journals.js';
import { BroadcastRejected } from '../relayer/broadcast.js';
import { fail, matchBurn, waitFor, type CctpOutcome } from './burn-rules.js';

/** A transaction (burn or mint) that already pays another payment. */
export class ClaimTaken extends Error {}

export const pastDeadline = (since: Date, ms: number): boolean => Date.now() - since.getTime() >= ms;

/** `90 seconds`, `2 hours`: how long a limit is, for a failure reason a merchant reads. */
export const duration = (ms: number): string =>
  ms < 120_000
    ? `${Math.round(ms / 1000)} seconds`
    : ms < 7_200_000
      ? `${Math.round(ms / 60_000)} minutes`
      : `${Math.round(ms / 3_600_000)} hours`;

/** `confirmations` deep, the including block counting as one. */
export const deepEnough = async (rpc: ChainRpc, chain: ChainConfig, blockNumber: number) =>
  (await rpc.blockNumber()) - blockNumber + 1 >= chain.confirmations;

/**
 * Where a cross-chain payment must arrive: the merchant's wallet and its chain, which must have CCTP,
 * be the payment's `destinationChainId` when it names one, and differ from the source chain.
 */
export const merchantDestination = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  source: ChainConfig,
): Promise<{ destination: ChainConfig; wallet: string } | CctpOutcome> => {
  const wallet = await ctx.wallets.primary(p.merchantId);
  if (!wallet) {
    if (!pastDeadline(p.paymentCreatedAt, ctx.verification.txNotFoundAfterMs))
      return waitFor('the merchant has no wallet yet');
    return fail('wrong_recipient', 'the merchant has no wallet held by this service');
  }
  const destination = chainById(ctx.registry, wallet.chainId);
  if (!destination?.cctp)
    return fail('chain_mismatch', `the merchant's chain ${wallet.blockchain} has no CCTP`);
  if (p.destinationChainId !== null && p.destinationChainId !== destination.chainId) {
    return fail(
      'chain_mismatch',
      `the payment names destination chain ${p.destinationChainId}, but the merchant is paid on ${destination.name} (${destination.chainId})`,
    );
  }
  if (destination.chainId === source.chainId) {
    return fail(
      'chain_mismatch',
      `a cross-chain payment cannot start on the merchant's own chain ${source.name}`,
    );
  }
  return { destination, wallet: getAddress(wallet.address) };
};

/**
 * The burn of the payment's transaction that pays it: a DepositForBurn of the source chain's
 * TokenMessengerV2 passing every rule of `matchBurn` for the payment's payer and amount, minting to
 * `mintRecipient` on `destination`; or why there is none.
 */
export const payingBurn = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  route: { source: ChainConfig; sourceRpc: ChainRpc; destination: ChainConfig },
  mintRecipient: string,
): Promise<{ receipt: ReceiptFacts; burn: DepositForBurn } | CctpOutcome> => {
  const { source, sourceRpc: rpc } = route;
  const receipt = await rpc.receipt(p.burnTxHash);
  if (!receipt) {
    if (!pastDeadline(p.paymentCreatedAt, ctx.verification.txNotFoundAfterMs))
      return waitFor('burn not found yet');
    return fail('burn_not_found', `no transaction ${p.burnTxHash} on ${source.name}`);
  }
  if (receipt.status !== 1) return fail('burn_reverted', `the burn transaction reverted on ${source.name}`);
  const messenger = getAddress(source.cctp!.tokenMessenger);
  const burns = receipt.logs
    .map(decodeDepositForBurn)
    .filter((b): b is DepositForBurn => b !== undefined && b.emitter === messenger);
  const matched = matchBurn(burns, {
    source,
    destination: route.destination,
    depositor: p.fromAddress,
    mintRecipient,
    minUnits: p.expectedUnits,
  });
  return 'burn' in matched ? { receipt, burn: matched.burn } : matched;
};

const recordFailure = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  reason: CctpFailureReason,
  detail: string,
) => {
  await ctx.db.transaction(async (trx) => {
    const moved = await advanceCctp(trx, p.paymentId, p.step, 'failed', {
      failureReason: reason,
      failureDetail: detail,
    });
    if (!moved) return;
    await ctx.writeEvent(trx, EventTypes.ChainCctpFailed, p.merchantId, {
      paymentId: p.paymentId,
      flow: p.flow,
      reason,
      detail,
    });
  });
  ctx.logger.info('cross-chain payment failed', { paymentId: p.paymentId, flow: p.flow, reason, detail });
};

/**
 * One look at a cross-chain payment: `step` checks the step it is at against the chains and the
 * attestation API. A step that holds has moved it on already; one that waits (the API, confirmations,
 * a pause, a transaction in flight) is looked at again later, with growing back-off while something
 * is missing or failing and never before a rate limit says; one that is wrong fails the payment.
 */
export const runCctpStep = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  step: () => Promise<CctpOutcome | undefined>,
): Promise<void> => {
  let outcome: CctpOutcome | undefined;
  try {
    outcome = await step();
  } catch (err) {
    if (err instanceof ClaimTaken)
      outcome = fail('already_claimed', 'transaction already paid another payment');
    else if (err instanceof RpcUnavailableError) outcome = waitFor(err.message);
    else if (err instanceof AttestationUnavailable)
      outcome = waitFor(err.message, { retryAfterMs: err.retryAfterMs });
    else {
      if (err instanceof BroadcastRejected)
        ctx.logger.warn('relay transaction refused', { err: err.message });
      else
        ctx.logger.error('cross-chain payment step failed', { paymentId: p.paymentId, err: errorText(err) });
      outcome = waitFor(errorText(err));
    }
  }
  if (!outcome) return;
  if (outcome.kind === 'fail') return recordFailure(ctx, p, outcome.reason, outcome.detail);
  const backoffStep = outcome.steady ? 0 : p.backoffStep + 1;
  const backoff = Math.min(ctx.cctp.maxBackoffMs, ctx.cctp.pollMs * 2 ** Math.min(backoffStep, 16));
  await rescheduleCctp(ctx.db, p.paymentId, {
    delayMs: Math.max(outcome.steady ? ctx.cctp.pollMs : backoff, outcome.retryAfterMs ?? 0),
    backoffStep,
  });
};

/** Books what a cross-chain payment delivered into the merchant wallet, in the caller's transaction. */
export const bookCctpPayment = (
  trx: Knex.Transaction,
  p: CctpPaymentRecord,
  chain: ChainConfig,
  wallet: string,
  paid: { txHash: string; logIndex: number; amount: bigint; blockNumber: number },
): Promise<void> =>
  recordPaymentIn(
    trx,
    {
      merchantId: p.merchantId,
      chainId: chain.chainId,
      blockchain: chain.name,
      token: 'USDC',
      walletAddress: wallet,
      txHash: paid.txHash,
      logIndex: paid.logIndex,
      amount: paid.amount,
      blockNumber: paid.blockNumber,
    },
    p.paymentId,
  );
