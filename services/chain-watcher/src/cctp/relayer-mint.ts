import { getAddress } from 'ethers';
import {
  CCTP_RECEIVE_REVERTS,
  CCTP_TOPICS,
  decodeCctpMessage,
  decodeMessageReceived,
  decodeMintAndWithdraw,
  encodeReceiveMessage,
  isNonceUsed,
} from '../chain/cctp.js';
import { tokenRefusal } from '../chain/fiat-token.js';
import type { ReceiptFacts } from '../chain/rpc-facts.js';
import { claimTransaction } from '../verification/claims-repo.js';
import { announceMinted } from './announce.js';
import { advanceCctp, noteCctpFacts, type CctpPaymentRecord } from './cctp-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { fail, waitFor, type CctpOutcome } from './burn-rules.js';
import { signedMessageOf } from './relayer-attestation.js';
import { relayKeyHeld, type RelayRoute } from './relayer-route.js';
import { ClaimTaken, deepEnough } from './steps.js';
import { estimateOrRevert } from '../relayer/broadcast.js';
import {
  advanceRelayAction,
  minedRelayTransactions,
  sendRelayTransaction,
  type RelayTransaction,
} from './relay-series.js';

interface Mint {
  txHash: string;
  blockNumber: number;
  minted: bigint;
}

/** The mint of this payment's message in a receipt: its MessageReceived and the relay's MintAndWithdraw. */
const mintIn = (
  receipt: ReceiptFacts,
  p: CctpPaymentRecord,
  r: RelayRoute,
): Omit<Mint, 'txHash'> | 'no_withdraw' | undefined => {
  if (receipt.status !== 1) return undefined;
  const transmitter = getAddress(r.destination.cctp!.messageTransmitter);
  const messenger = getAddress(r.destination.cctp!.tokenMessenger);
  const received = receipt.logs
    .map(decodeMessageReceived)
    .find((m) => m?.emitter === transmitter && m.nonce === p.messageNonce);
  if (!received) return undefined;
  const withdrawn = receipt.logs
    .map(decodeMintAndWithdraw)
    .find(
      (m) =>
        m?.emitter === messenger &&
        m.mintRecipient === r.relay &&
        m.mintToken === getAddress(r.destination.tokens.USDC!),
    );
  if (!withdrawn) return 'no_withdraw';
  return { blockNumber: receipt.blockNumber, minted: withdrawn.amount };
};

/** Transactions that received the message's nonce on the destination, from where the burn was verified. */
const receivedByLogs = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  r: RelayRoute,
): Promise<string[]> => {
  const head = await r.destinationRpc.blockNumber();
  const window = ctx.transfers.logWindowBlocks;
  const found: string[] = [];
  for (let from = p.mintSearchFrom ?? Math.max(0, head - window); from <= head; from += window) {
    const logs = await r.destinationRpc.logs({
      address: r.destination.cctp!.messageTransmitter,
      topics: [CCTP_TOPICS.messageReceived, null, p.messageNonce],
      fromBlock: from,
      toBlock: Math.min(head, from + window - 1),
    });
    found.push(...logs.filter((l) => !l.removed).map((l) => l.transactionHash.toLowerCase()));
  }
  return found;
};

/**
 * The message's nonce is used on the destination: it was minted, by the relay's transaction or by
 * anyone's (the payer, Circle's forwarder). The mint is found, checked and recorded once deep enough.
 */
const settleMint = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  r: RelayRoute,
  txs: RelayTransaction[],
): Promise<CctpOutcome | undefined> => {
  const ours = (await minedRelayTransactions(ctx, p, r.destinationRpc, txs)).map((m) => m.tx.txHash);
  let mint: Mint | undefined;
  for (const txHash of new Set([...ours, ...(await receivedByLogs(ctx, p, r))])) {
    const receipt = await r.destinationRpc.receipt(txHash);
    const found = receipt ? mintIn(receipt, p, r) : undefined;
    if (found === 'no_withdraw') {
      return fail(
        'mint_failed',
        `the message was received on ${r.destination.name} (transaction ${txHash}) without minting to the relay wallet ${r.relay}`,
      );
    }
    if (found) {
      mint = { ...found, txHash };
      break;
    }
  }
  if (!mint) return waitFor('the message is received; its transaction is not found yet');
  if (!(await deepEnough(r.destinationRpc, r.destination, mint.blockNumber)))
    return waitFor('mint confirmations', { steady: true });
  const confirmed = mint;
  await ctx.db.transaction(async (trx) => {
    if (!(await claimTransaction(trx, r.destination.chainId, confirmed.txHash, p.paymentId)))
      throw new ClaimTaken();
    const moved = await advanceCctp(trx, p.paymentId, 'mint', 'transfer', {
      mintTxHash: confirmed.txHash,
      mintedUnits: confirmed.minted,
      mintBlock: confirmed.blockNumber,
    });
    if (!moved) return;
    await announceMinted(ctx, trx, p, { ...confirmed, destination: r.destination, recipient: r.relay });
  });
  ctx.logger.info('relay minted', { paymentId: p.paymentId, txHash: confirmed.txHash });
  return undefined;
};

/**
 * The attested message expired on the destination (a fast transfer's expirationBlock passed): Circle
 * signs it again on request, as standard once the burn is final. The new message replaces the kept
 * one, and the next look sends it.
 */
const reattest = async (ctx: WatcherContext, p: CctpPaymentRecord, r: RelayRoute): Promise<CctpOutcome> => {
  const api = ctx.cctp.attestation;
  if (!api) {
    return fail(
      'mint_failed',
      'the attested message expired and no attestation API is configured to sign it again',
    );
  }
  ctx.logger.info('attested message expired: asking for a new signature', {
    paymentId: p.paymentId,
    nonce: p.messageNonce,
  });
  if (!(await api.reattest(p.messageNonce!))) return waitFor('the attestation API does not know the nonce');
  const signed = signedMessageOf(await api.messagesByTransaction(r.source.cctpDomain, p.burnTxHash), p, r);
  if (signed?.message.nonce !== p.messageNonce || signed?.attested.message === p.attestedMessage)
    return waitFor('re-attestation not available yet');
  await noteCctpFacts(ctx.db, p.paymentId, 'mint', {
    attestedMessage: signed.attested.message,
    attestation: signed.attested.attestation,
  });
  return waitFor('re-attested');
};

/**
 * Sends receiveMessage after asking the transmitter what it says to it: an expired message is
 * re-attested first, a refusal that will not pass fails the payment without costing gas.
 */
const sendMint = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  r: RelayRoute,
  data: string,
  after: number,
  reverted?: string,
): Promise<CctpOutcome> => {
  const transmitter = getAddress(r.destination.cctp!.messageTransmitter);
  const { expirationBlock } = decodeCctpMessage(p.attestedMessage!).body;
  if (expirationBlock !== 0n && expirationBlock <= BigInt(await r.destinationRpc.blockNumber()))
    return reattest(ctx, p, r);
  const estimate = await estimateOrRevert(r.destinationRpc, { from: r.relay, to: transmitter, data });
  if ('revert' in estimate) {
    const said = estimate.revert.message;
    if (said === CCTP_RECEIVE_REVERTS.expired) return reattest(ctx, p, r);
    // Received by someone in the meantime: the next look finds the mint.
    if (said === CCTP_RECEIVE_REVERTS.nonceUsed) return waitFor('received meanwhile', { steady: true });
    // The transmitter, the messenger or USDC paused: a pause passes, the mint waits for it.
    if (tokenRefusal(estimate.revert).kind === 'paused')
      return waitFor(`CCTP or USDC on ${r.destination.name} is paused: the mint waits`);
    return fail(
      'mint_failed',
      `the message transmitter on ${r.destination.name} refuses the message: ${said}${reverted ? ` (the relay's transaction ${reverted} reverted)` : ''}`,
    );
  }
  return sendRelayTransaction(ctx, p, r.destinationRpc, r.destination, {
    action: 'mint',
    to: transmitter,
    data,
    gasEstimate: estimate.gas,
    after,
  });
};

/**
 * Mint step: the relay receives the attested message on the destination. The message's nonce can be
 * received once, so usedNonces is asked first, before sending and after any restart: once used, the
 * mint is found rather than sent again.
 */
export const advanceRelayMint = (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  r: RelayRoute,
): Promise<CctpOutcome | undefined> => {
  const data = () => encodeReceiveMessage(p.attestedMessage!, p.attestation!);
  return advanceRelayAction(
    ctx,
    p,
    { rpc: r.destinationRpc, chain: r.destination },
    {
      action: 'mint',
      doneOnChain: () =>
        isNonceUsed(r.destinationRpc, r.destination.cctp!.messageTransmitter, p.messageNonce!),
      settle: (txs) => settleMint(ctx, p, r, txs),
      calldata: data,
      send: async (after, reverted) => {
        if (relayKeyHeld(ctx, r)) return sendMint(ctx, p, r, data(), after, reverted);
        return fail(
          'mint_failed',
          reverted
            ? `the relay's mint ${reverted} reverted`
            : `the key of the relay wallet ${r.relay} is no longer configured`,
        );
      },
    },
  );
};
