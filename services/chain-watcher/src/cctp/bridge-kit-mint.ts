import type { Knex } from 'knex';
import { EventTypes, baseUnitsToDecimal } from '@stablepay/contracts';
import { getAddress } from 'ethers';
import { decodeBurnMessageV2 } from '@stablepay/platform/cctp/message-v2';
import { isSigned } from '../chain/attestation-api.js';
import {
  CCTP_TOPICS,
  addressFromWord,
  decodeCctpMessage,
  decodeMessageReceived,
  decodeMintAndWithdraw,
} from '../chain/cctp.js';
import { decodeTransfer } from '../chain/erc20.js';
import type { ReceiptFacts } from '../chain/rpc-facts.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { claimTransaction } from '../verification/claims-repo.js';
import { lockTransaction, markMatched } from '../verification/unclaimed-repo.js';
import type { BridgeKitRoute } from './bridge-kit.js';
import { fail, waitFor, type CctpOutcome } from './burn-rules.js';
import { announceMinted } from './announce.js';
import { advanceCctp, type CctpPaymentRecord } from './cctp-repo.js';
import { ClaimTaken, bookCctpPayment, deepEnough, duration, pastDeadline } from './steps.js';

/** The nonce Circle's attester gave the burn's message, once attested; also a mint it forwarded. */
const attestedFacts = async (ctx: WatcherContext, p: CctpPaymentRecord, r: BridgeKitRoute) => {
  if (!ctx.cctp.attestation) return {};
  const messages = await ctx.cctp.attestation.messagesByTransaction(r.source.cctpDomain, p.burnTxHash);
  const done = messages.find(isSigned);
  if (!done) return {};
  const nonce = decodeCctpMessage(done.message).nonce;
  return { nonce, forwardTxHash: done.forwardTxHash ?? undefined };
};

interface MintFacts {
  txHash: string;
  blockNumber: number;
  minted: bigint;
  nonce: string;
  /** of the Transfer into the merchant wallet */
  logIndex: number | undefined;
}

/** The mint of this burn in `receipt`, if it holds one: same source, body, recipient and token. */
const mintIn = (
  receipt: ReceiptFacts,
  p: CctpPaymentRecord,
  r: BridgeKitRoute,
  nonce?: string,
): Omit<MintFacts, 'txHash'> | undefined => {
  if (receipt.status !== 1) return undefined;
  const transmitter = getAddress(r.destination.cctp!.messageTransmitter);
  const messenger = getAddress(r.destination.cctp!.tokenMessenger);
  const received = receipt.logs.map(decodeMessageReceived).find((m) => {
    if (!m || m.emitter !== transmitter || m.sourceDomain !== r.source.cctpDomain) return false;
    if (nonce && m.nonce !== nonce) return false;
    try {
      const body = decodeBurnMessageV2(m.messageBody);
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
  // The Transfer log of the mint into the wallet (the net amount): what the ledger records.
  const usdc = getAddress(r.destination.tokens.USDC!);
  const credited = receipt.logs
    .map(decodeTransfer)
    .find((t) => t?.token === usdc && t.to === getAddress(r.wallet) && t.value === minted.amount);
  return {
    blockNumber: receipt.blockNumber,
    minted: minted.amount,
    nonce: received.nonce,
    logIndex: credited?.logIndex,
  };
};

/** A MessageReceived of this nonce on the destination, within the log window. */
const findMintByNonce = async (
  ctx: WatcherContext,
  r: BridgeKitRoute,
  nonce: string,
): Promise<string | undefined> => {
  const head = await r.destinationRpc.blockNumber();
  const logs = await r.destinationRpc.logs({
    address: r.destination.cctp!.messageTransmitter,
    topics: [CCTP_TOPICS.messageReceived, null, nonce],
    fromBlock: Math.max(0, head - ctx.transfers.logWindowBlocks),
    toBlock: head,
  });
  return logs.at(-1)?.transactionHash?.toLowerCase();
};

/** The mint among the candidates: the hash the client gave, the forwarder's, and the nonce's. */
const findMint = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  r: BridgeKitRoute,
): Promise<MintFacts | undefined> => {
  const facts = await attestedFacts(ctx, p, r);
  const candidates = [p.mintTxHash, facts.forwardTxHash?.toLowerCase()].filter((h): h is string => !!h);
  if (facts.nonce) {
    const found = await findMintByNonce(ctx, r, facts.nonce);
    if (found) candidates.push(found);
  }
  for (const txHash of new Set(candidates)) {
    const receipt = await r.destinationRpc.receipt(txHash);
    const found = receipt ? mintIn(receipt, p, r, facts.nonce) : undefined;
    if (found) return { ...found, txHash };
  }
  return undefined;
};

/** What a confirmed mint says of the payment: short of the amount due (after fees) or paid. */
const verdictOf = (p: CctpPaymentRecord, mint: MintFacts) => {
  // The merchant is owed the payment's amount after Circle's (and any forwarding) fee.
  const short = p.merchantReceivesUnits !== null && mint.minted < p.merchantReceivesUnits;
  const fee = p.burnedUnits !== null && p.burnedUnits >= mint.minted ? p.burnedUnits - mint.minted : null;
  return {
    short,
    feeFact: fee === null ? {} : { cctpFeeAmount: baseUnitsToDecimal(fee) },
    detail: `the mint delivered ${baseUnitsToDecimal(mint.minted)} USDC to the merchant wallet; the payment is for ${baseUnitsToDecimal(p.merchantReceivesUnits ?? 0n)}`,
  };
};

/** The mint's events: minted, then verified, or failed underpaid (what arrived is refundable). */
const announceMint = async (
  ctx: WatcherContext,
  trx: Knex.Transaction,
  p: CctpPaymentRecord,
  r: BridgeKitRoute,
  mint: MintFacts,
  seen: { blockTimestamp: number; head: number },
): Promise<void> => {
  const { short, feeFact, detail } = verdictOf(p, mint);
  await announceMinted(ctx, trx, p, { ...mint, destination: r.destination, recipient: getAddress(r.wallet) });
  if (short) {
    // What was minted is in the merchant wallet all the same: the payment says so, for a refund.
    await ctx.writeEvent(trx, EventTypes.ChainCctpFailed, p.merchantId, {
      paymentId: p.paymentId,
      flow: 'bridge_kit',
      reason: 'underpaid',
      detail,
      receivedAmount: baseUnitsToDecimal(mint.minted),
      ...feeFact,
    });
    return;
  }
  await ctx.writeEvent(trx, EventTypes.ChainPaymentVerified, p.merchantId, {
    paymentId: p.paymentId,
    txHash: mint.txHash,
    chainId: r.destination.chainId,
    token: 'USDC',
    fromAddress: getAddress(p.fromAddress),
    toAddress: getAddress(r.wallet),
    receivedAmount: baseUnitsToDecimal(mint.minted),
    ...feeFact,
    mintTxHash: mint.txHash,
    blockNumber: mint.blockNumber,
    blockTimestamp: new Date(seen.blockTimestamp * 1000).toISOString(),
    confirmations: seen.head - mint.blockNumber + 1,
  });
};

/** Claims the mint's transaction for the payment, books it and announces the verdict, at once. */
const recordMint = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  r: BridgeKitRoute,
  mint: MintFacts,
  seen: { blockTimestamp: number; head: number },
): Promise<void> => {
  const { short, detail } = verdictOf(p, mint);
  await ctx.db.transaction(async (trx) => {
    await lockTransaction(trx, r.destination.chainId, mint.txHash);
    if (!(await claimTransaction(trx, r.destination.chainId, mint.txHash, p.paymentId)))
      throw new ClaimTaken();
    // The scanner may have seen the mint first and recorded it as unclaimed: it is this payment's.
    await markMatched(trx, r.destination.chainId, mint.txHash, p.paymentId);
    const moved = await advanceCctp(trx, p.paymentId, 'mint', short ? 'failed' : 'done', {
      mintTxHash: mint.txHash,
      mintedUnits: mint.minted,
      mintBlock: mint.blockNumber,
      messageNonce: mint.nonce,
      ...(short ? { failureReason: 'underpaid' as const, failureDetail: detail } : {}),
    });
    if (!moved) return;
    if (mint.logIndex !== undefined) {
      await bookCctpPayment(trx, p, r.destination, r.wallet, {
        ...mint,
        logIndex: mint.logIndex,
        amount: mint.minted,
      });
    }
    await announceMint(ctx, trx, p, r, mint, seen);
  });
};

/**
 * Mint step: the burn's USDC was minted to the merchant wallet on its chain (by the client, by
 * Circle's forwarder, or by anyone): found by the hash the client gave, the forwarder's hash, or the
 * attested nonce, and checked in the receipt.
 */
export const checkBridgeKitMint = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  r: BridgeKitRoute,
): Promise<CctpOutcome | undefined> => {
  const mint = await findMint(ctx, p, r);
  if (!mint) {
    if (!pastDeadline(p.paymentCreatedAt, ctx.cctp.mintTimeoutMs)) return waitFor('mint not found yet');
    return fail(
      'mint_not_found',
      `the burn was not minted to the merchant wallet on ${r.destination.name} within ${duration(ctx.cctp.mintTimeoutMs)}`,
    );
  }
  if (!(await deepEnough(r.destinationRpc, r.destination, mint.blockNumber)))
    return waitFor('mint confirmations', { steady: true });
  const block = await r.destinationRpc.block(mint.blockNumber);
  if (!block) return waitFor('mint block not readable');
  // Read before the transaction: it holds the wallet's ledger rows, which no chain call may keep waiting.
  const head = await r.destinationRpc.blockNumber();
  await recordMint(ctx, p, r, mint, { blockTimestamp: block.timestamp, head });
  return undefined;
};
