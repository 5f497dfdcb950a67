import { EventTypes, baseUnitsToDecimal, chainById, type ChainConfig } from '@stablepay/contracts';
import { getAddress } from 'ethers';
import {
  CCTP_TOPICS,
  decodeCctpMessage,
  decodeMessageReceived,
  decodeMintAndWithdraw,
  addressFromWord,
} from '../chain/cctp.js';
import { isSigned } from '../chain/attestation-api.js';
import type { ChainRpc } from '../chain/chain-rpc.js';
import { decodeTransfer } from '../chain/erc20.js';
import type { ReceiptFacts } from '../chain/rpc-facts.js';
import { claimTransaction } from '../verification/claims-repo.js';
import { lockTransaction, markMatched } from '../verification/unclaimed-repo.js';
import { advanceCctp, type CctpPaymentRecord } from './cctp-repo.js';
import { recordPaymentIn } from '../ledger/journals.js';
import { writeEvent, type WatcherContext } from '../context/watcher-context.js';
import { fail, waitFor, type CctpOutcome } from './burn-rules.js';
import {
  ClaimTaken,
  payingBurn,
  deepEnough,
  duration,
  merchantDestination,
  pastDeadline,
  runCctpStep,
} from './steps.js';

/** The chains and wallet of one cross-chain payment, or why it cannot be paid that way. */
interface Route {
  source: ChainConfig;
  destination: ChainConfig;
  wallet: string;
  sourceRpc: ChainRpc;
  destinationRpc: ChainRpc;
}

const routeOf = async (ctx: WatcherContext, p: CctpPaymentRecord): Promise<Route | CctpOutcome> => {
  const source = chainById(ctx.registry, p.sourceChainId);
  if (!source?.cctp) {
    return fail('chain_mismatch', `chain id ${p.sourceChainId} is not a CCTP chain served here`);
  }
  const to = await merchantDestination(ctx, p, source);
  if (!('destination' in to)) return to;
  const sourceRpc = ctx.chains.get(source.chainId);
  const destinationRpc = ctx.chains.get(to.destination.chainId);
  if (!sourceRpc || !destinationRpc) return fail('chain_mismatch', 'no RPC client for the route');
  return { source, destination: to.destination, wallet: to.wallet, sourceRpc, destinationRpc };
};

/** Burn step: the transaction burned enough USDC on the source chain, to the merchant, deep enough. */
const checkBurn = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  r: Route,
): Promise<CctpOutcome | undefined> => {
  const found = await payingBurn(ctx, p, r, r.wallet);
  if (!('receipt' in found)) return found;
  const { receipt } = found;
  if (!(await deepEnough(r.sourceRpc, r.source, receipt.blockNumber)))
    return waitFor('burn confirmations', { steady: true });
  const burn = found.burn;
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

/** The nonce Circle's attester gave the burn's message, once attested; also a mint it forwarded. */
const attestedFacts = async (ctx: WatcherContext, p: CctpPaymentRecord, r: Route) => {
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
  const confirmed = mint;
  // The merchant is owed the payment's amount after Circle's (and any forwarding) fee.
  const short = p.merchantReceivesUnits !== null && confirmed.minted < p.merchantReceivesUnits;
  const fee =
    p.burnedUnits !== null && p.burnedUnits >= confirmed.minted ? p.burnedUnits - confirmed.minted : null;
  const feeFact = fee === null ? {} : { cctpFeeAmount: baseUnitsToDecimal(fee) };
  const detail = `the mint delivered ${baseUnitsToDecimal(confirmed.minted)} USDC to the merchant wallet; the payment is for ${baseUnitsToDecimal(p.merchantReceivesUnits ?? 0n)}`;
  // Read before the transaction: it holds the wallet's ledger rows, which no chain call may keep waiting.
  const head = await r.destinationRpc.blockNumber();
  await ctx.db.transaction(async (trx) => {
    await lockTransaction(trx, r.destination.chainId, confirmed.txHash);
    if (!(await claimTransaction(trx, r.destination.chainId, confirmed.txHash, p.paymentId)))
      throw new ClaimTaken();
    // The scanner may have seen the mint first and recorded it as unclaimed: it is this payment's.
    await markMatched(trx, r.destination.chainId, confirmed.txHash, p.paymentId);
    if (
      !(await advanceCctp(trx, p.paymentId, 'mint', short ? 'failed' : 'done', {
        mintTxHash: confirmed.txHash,
        mintedUnits: confirmed.minted,
        mintBlock: confirmed.blockNumber,
        messageNonce: confirmed.nonce,
        ...(short ? { failureReason: 'underpaid' as const, failureDetail: detail } : {}),
      }))
    )
      return;
    if (confirmed.logIndex !== undefined) {
      await recordPaymentIn(
        trx,
        {
          merchantId: p.merchantId,
          chainId: r.destination.chainId,
          blockchain: r.destination.name,
          token: 'USDC',
          walletAddress: r.wallet,
          txHash: confirmed.txHash,
          logIndex: confirmed.logIndex,
          amount: confirmed.minted,
          blockNumber: confirmed.blockNumber,
        },
        p.paymentId,
      );
    }
    await writeEvent(trx, EventTypes.ChainCctpMinted, p.merchantId, {
      paymentId: p.paymentId,
      flow: 'bridge_kit',
      mintTxHash: confirmed.txHash,
      destinationChainId: r.destination.chainId,
      recipient: getAddress(r.wallet),
      mintedAmount: baseUnitsToDecimal(confirmed.minted),
      blockNumber: confirmed.blockNumber,
    });
    if (short) {
      // What was minted is in the merchant wallet all the same: the payment says so, for a refund.
      await writeEvent(trx, EventTypes.ChainCctpFailed, p.merchantId, {
        paymentId: p.paymentId,
        flow: 'bridge_kit',
        reason: 'underpaid',
        detail,
        receivedAmount: baseUnitsToDecimal(confirmed.minted),
        ...feeFact,
      });
      return;
    }
    await writeEvent(trx, EventTypes.ChainPaymentVerified, p.merchantId, {
      paymentId: p.paymentId,
      txHash: confirmed.txHash,
      chainId: r.destination.chainId,
      token: 'USDC',
      fromAddress: getAddress(p.fromAddress),
      toAddress: getAddress(r.wallet),
      receivedAmount: baseUnitsToDecimal(confirmed.minted),
      ...feeFact,
      mintTxHash: confirmed.txHash,
      blockNumber: confirmed.blockNumber,
      blockTimestamp: new Date(block.timestamp * 1000).toISOString(),
      confirmations: head - confirmed.blockNumber + 1,
    });
  });
  ctx.eventsCommitted();
  return undefined;
};

/** One look at a bridge-kit payment: its burn, then its mint (see runCctpStep). */
export const advanceBridgeKitPayment = (ctx: WatcherContext, p: CctpPaymentRecord): Promise<void> =>
  runCctpStep(ctx, p, async () => {
    const route = await routeOf(ctx, p);
    if (!('source' in route)) return route;
    if (p.step === 'burn') return checkBurn(ctx, p, route);
    if (p.step === 'mint') return checkMint(ctx, p, route);
    return undefined;
  });
