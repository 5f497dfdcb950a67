import {
  EventTypes,
  baseUnitsToDecimal,
  chainById,
  type ChainConfig,
  type CctpFailureReason,
} from '@stablepay/contracts';
import { getAddress } from 'ethers';
import {
  CCTP_TOPICS,
  decodeCctpMessage,
  decodeDepositForBurn,
  decodeMessageReceived,
  decodeMintAndWithdraw,
  addressFromWord,
} from '../../chain/cctp.js';
import { AttestationUnavailable } from '../../chain/attestation-api.js';
import type { ChainRpc } from '../../chain/chain-rpc.js';
import { RpcUnavailableError } from '../../chain/rpc-errors.js';
import type { ReceiptFacts } from '../../chain/rpc-facts.js';
import { claimTransaction } from '../../db/claims-repo.js';
import { lockTransaction, markMatched } from '../../db/unclaimed-repo.js';
import { advanceCctp, rescheduleCctp, type CctpPaymentRecord } from '../../db/cctp-repo.js';
import { writeEvent, type WatcherContext } from '../context.js';
import { fail, matchBurn, waitFor, type CctpOutcome } from './burn-rules.js';

/** The chains and wallet of one cross-chain payment, or why it cannot be paid that way. */
interface Route {
  source: ChainConfig;
  destination: ChainConfig;
  wallet: string;
  sourceRpc: ChainRpc;
  destinationRpc: ChainRpc;
}

/** `90 seconds`, `2 hours`: how long a limit is, for a failure reason a merchant reads. */
const duration = (ms: number): string =>
  ms < 120_000
    ? `${Math.round(ms / 1000)} seconds`
    : ms < 7_200_000
      ? `${Math.round(ms / 60_000)} minutes`
      : `${Math.round(ms / 3_600_000)} hours`;

const pastDeadline = (p: CctpPaymentRecord, ms: number) => Date.now() - p.paymentCreatedAt.getTime() >= ms;

const routeOf = async (ctx: WatcherContext, p: CctpPaymentRecord): Promise<Route | CctpOutcome> => {
  const source = chainById(ctx.registry, p.sourceChainId);
  if (!source?.cctp) {
    return fail('chain_mismatch', `chain id ${p.sourceChainId} is not a CCTP chain served here`);
  }
  const wallet = await ctx.wallets.primary(p.merchantId);
  if (!wallet) {
    if (!pastDeadline(p, ctx.verification.txNotFoundAfterMs))
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
  const sourceRpc = ctx.chains.get(source.chainId);
  const destinationRpc = ctx.chains.get(destination.chainId);
  if (!sourceRpc || !destinationRpc) return fail('chain_mismatch', 'no RPC client for the route');
  return { source, destination, wallet: wallet.address, sourceRpc, destinationRpc };
};

const deepEnough = async (rpc: ChainRpc, chain: ChainConfig, blockNumber: number) =>
  (await rpc.blockNumber()) - blockNumber + 1 >= chain.confirmations;

/** Burn step: the transaction burned enough USDC on the source chain, to the merchant, deep enough. */
const checkBurn = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  r: Route,
): Promise<CctpOutcome | undefined> => {
  const receipt = await r.sourceRpc.receipt(p.burnTxHash);
  if (!receipt) {
    if (!pastDeadline(p, ctx.verification.txNotFoundAfterMs)) return waitFor('burn not found yet');
    return fail('burn_not_found', `no transaction ${p.burnTxHash} on ${r.source.name}`);
  }
  if (receipt.status !== 1) return fail('burn_reverted', `the burn transaction reverted on ${r.source.name}`);
  const messenger = getAddress(r.source.cctp!.tokenMessenger);
  const burns = receipt.logs
    .map(decodeDepositForBurn)
    .filter((b): b is NonNullable<typeof b> => b !== undefined && b.emitter === messenger);
  const matched = matchBurn(burns, {
    source: r.source,
    destination: r.destination,
    depositor: p.fromAddress,
    mintRecipient: r.wallet,
    minUnits: p.expectedUnits,
  });
  if (!('burn' in matched)) return matched;
  if (!(await deepEnough(r.sourceRpc, r.source, receipt.blockNumber)))
    return waitFor('burn confirmations', { steady: true });
  const burn = matched.burn;
  await ctx.db.transaction(async (trx) => {
    if (!(await claimTransaction(trx, r.source.chainId, p.burnTxHash, p.paymentId))) {
      throw new ClaimTaken();
    }
    if (
      !(await advanceCctp(trx, p.paymentId, 'burn', 'mint', {
        burnBlock: receipt.blockNumber,
        burnedUnits: burn.amount,
      }))
    )
      return;
    await writeEvent(trx, EventTypes.ChainCctpBurnVerified, p.merchantId, {
      paymentId: p.paymentId,
      flow: 'bridge_kit',
      burnTxHash: p.burnTxHash,
      sourceChainId: r.source.chainId,
      sourceDomain: r.source.cctpDomain,
      destinationDomain: burn.destinationDomain,
      amount: baseUnitsToDecimal(burn.amount),
      mintRecipient: getAddress(r.wallet),
      blockNumber: receipt.blockNumber,
    });
  });
  ctx.eventsCommitted();
  return undefined;
};

class ClaimTaken extends Error {}

/** The nonce Circle's attester gave the burn's message, once attested; also a mint it forwarded. */
const attestedFacts = async (ctx: WatcherContext, p: CctpPaymentRecord, r: Route) => {
  if (!ctx.cctp.attestation) return {};
  const messages = await ctx.cctp.attestation.messagesByTransaction(r.source.cctpDomain, p.burnTxHash);
  const done = messages.find((m) => m.status === 'complete');
  if (!done) return {};
  const nonce = decodeCctpMessage(done.message).nonce;
  return { nonce, forwardTxHash: done.forwardTxHash ?? undefined };
};

interface MintFacts {
  txHash: string;
  blockNumber: number;
  minted: bigint;
  nonce: string;
}

/** The mint of this burn in `receipt`, if it holds one: same source, body, recipient and token. */
const mintIn = (
  receipt: ReceiptFacts,
  p: CctpPaymentRecord,
  r: Route,
  nonce?: string,
): Omit<MintFacts, 'txHash'> | undefined => {
  if (receipt.status !== 1) return undefined;
  const transmitter = getAddress(r.destination.cctp!.messageTransmitter);
  const messenger = getAddress(r.destination.cctp!.tokenMessenger);
  const received = receipt.logs.map(decodeMessageReceived).find((m) => {
    if (!m || m.emitter !== transmitter || m.sourceDomain !== r.source.cctpDomain) return false;
    if (nonce && m.nonce !== nonce) return false;
    try {
      const body = decodeCctpMessageBody(m.messageBody);
      return (
        addressFromWord(body.mintRecipient) === getAddress(r.wallet) &&
        addressFromWord(body.burnToken) === getAddress(r.source.tokens.USDC!) &&
        addressFromWord(body.messageSender) === getAddress(p.fromAddress) &&
        body.amount === p.burnedUnits
      );
    } catch {
      return false;
    }
  });
  if (!received) return undefined;
  const minted = receipt.logs
    .map(decodeMintAndWithdraw)
    .find(
      (m) =>
        m !== undefined &&
        m.emitter === messenger &&
        m.mintRecipient === getAddress(r.wallet) &&
        m.mintToken === getAddress(r.destination.tokens.USDC!),
    );
  if (!minted) return undefined;
  return { blockNumber: receipt.blockNumber, minted: minted.amount, nonce: received.nonce };
};

const decodeCctpMessageBody = (body: string) =>
  decodeCctpMessage(`0x${'00'.repeat(148)}${body.slice(2)}`).body;

/** A MessageReceived of this nonce on the destination, within the log window. */
const findMintByNonce = async (ctx: WatcherContext, r: Route, nonce: string): Promise<string | undefined> => {
  const head = await r.destinationRpc.blockNumber();
  const logs = await r.destinationRpc.logs({
    address: r.destination.cctp!.messageTransmitter,
    topics: [CCTP_TOPICS.messageReceived, null, nonce],
    fromBlock: Math.max(0, head - ctx.transfers.logWindowBlocks),
    toBlock: head,
  });
  return logs.at(-1)?.transactionHash?.toLowerCase();
};

/**
 * Mint step: the burn's USDC was minted to the merchant wallet on its chain (by the client, by
 * Circle's forwarder, or by anyone): found by the hash the client gave, the forwarder's hash, or the
 * attested nonce, and checked in the receipt.
 */
const checkMint = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  r: Route,
): Promise<CctpOutcome | undefined> => {
  const facts = await attestedFacts(ctx, p, r);
  const candidates = [p.mintTxHash, facts.forwardTxHash?.toLowerCase()].filter((h): h is string => !!h);
  if (facts.nonce) {
    const found = await findMintByNonce(ctx, r, facts.nonce);
    if (found) candidates.push(found);
  }
  let mint: MintFacts | undefined;
  for (const txHash of new Set(candidates)) {
    const receipt = await r.destinationRpc.receipt(txHash);
    const found = receipt ? mintIn(receipt, p, r, facts.nonce) : undefined;
    if (found) {
      mint = { ...found, txHash };
      break;
    }
  }
  if (!mint) {
    if (!pastDeadline(p, ctx.cctp.mintTimeoutMs)) return waitFor('mint not found yet');
    return fail(
      'mint_not_found',
      `the burn was not minted to the merchant wallet on ${r.destination.name} within ${duration(ctx.cctp.mintTimeoutMs)}`,
    );
  }
  if (!(await deepEnough(r.destinationRpc, r.destination, mint.blockNumber)))
    return waitFor('mint confirmations', { steady: true });
  const block = await r.destinationRpc.block(mint.blockNumber);
  if (!block) return waitFor('mint block not readable');
  const confirmed = mint;
  await ctx.db.transaction(async (trx) => {
    await lockTransaction(trx, r.destination.chainId, confirmed.txHash);
    if (!(await claimTransaction(trx, r.destination.chainId, confirmed.txHash, p.paymentId)))
      throw new ClaimTaken();
    // The scanner may have seen the mint first and recorded it as unclaimed: it is this payment's.
    await markMatched(trx, r.destination.chainId, confirmed.txHash, p.paymentId);
    if (
      !(await advanceCctp(trx, p.paymentId, 'mint', 'done', {
        mintTxHash: confirmed.txHash,
        mintedUnits: confirmed.minted,
        mintBlock: confirmed.blockNumber,
        messageNonce: confirmed.nonce,
      }))
    )
      return;
    await writeEvent(trx, EventTypes.ChainCctpMinted, p.merchantId, {
      paymentId: p.paymentId,
      flow: 'bridge_kit',
      mintTxHash: confirmed.txHash,
      destinationChainId: r.destination.chainId,
      recipient: getAddress(r.wallet),
      mintedAmount: baseUnitsToDecimal(confirmed.minted),
      blockNumber: confirmed.blockNumber,
    });
    await writeEvent(trx, EventTypes.ChainPaymentVerified, p.merchantId, {
      paymentId: p.paymentId,
      txHash: confirmed.txHash,
      chainId: r.destination.chainId,
      token: 'USDC',
      fromAddress: getAddress(p.fromAddress),
      toAddress: getAddress(r.wallet),
      receivedAmount: baseUnitsToDecimal(confirmed.minted),
      blockNumber: confirmed.blockNumber,
      blockTimestamp: new Date(block.timestamp * 1000).toISOString(),
      confirmations: (await r.destinationRpc.blockNumber()) - confirmed.blockNumber + 1,
    });
  });
  ctx.eventsCommitted();
  return undefined;
};

const recordFailure = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  reason: CctpFailureReason,
  detail: string,
) => {
  await ctx.db.transaction(async (trx) => {
    if (
      !(await advanceCctp(trx, p.paymentId, p.step, 'failed', {
        failureReason: reason,
        failureDetail: detail,
      }))
    )
      return;
    await writeEvent(trx, EventTypes.ChainCctpFailed, p.merchantId, {
      paymentId: p.paymentId,
      flow: p.flow,
      reason,
      detail,
    });
  });
  ctx.eventsCommitted();
  ctx.logger.info('cross-chain payment failed', { paymentId: p.paymentId, reason, detail });
};

/**
 * One look at a bridge-kit payment: the step it is at is checked against the chains (and the
 * attestation API when configured); a step that holds moves it on at once, one that cannot tell yet
 * is looked at again with back-off, one that is wrong fails the payment with the reason.
 */
export const advanceBridgeKitPayment = async (ctx: WatcherContext, p: CctpPaymentRecord): Promise<void> => {
  let outcome: CctpOutcome | undefined;
  try {
    const route = await routeOf(ctx, p);
    if (!('source' in route)) outcome = route;
    else if (p.step === 'burn') outcome = await checkBurn(ctx, p, route);
    else if (p.step === 'mint') outcome = await checkMint(ctx, p, route);
  } catch (err) {
    if (err instanceof ClaimTaken)
      outcome = fail('already_claimed', `transaction already paid another payment`);
    else if (err instanceof RpcUnavailableError) outcome = waitFor(err.message);
    else if (err instanceof AttestationUnavailable)
      outcome = waitFor(err.message, { retryAfterMs: err.retryAfterMs });
    else throw err;
  }
  if (!outcome) return;
  if (outcome.kind === 'fail') return recordFailure(ctx, p, outcome.reason, outcome.detail);
  const step = outcome.steady ? 0 : p.backoffStep + 1;
  const backoff = Math.min(ctx.cctp.maxBackoffMs, ctx.cctp.pollMs * 2 ** Math.min(step, 16));
  await rescheduleCctp(ctx.db, p.paymentId, {
    delayMs: Math.max(outcome.steady ? ctx.cctp.pollMs : backoff, outcome.retryAfterMs ?? 0),
    backoffStep: step,
  });
};
