import { ZeroHash, getAddress, keccak256 } from 'ethers';
import { addressFromWord, decodeMessageSent } from '../chain/cctp.js';
import type { ReceiptFacts } from '../chain/rpc-facts.js';
import { claimTransaction } from '../verification/claims-repo.js';
import { announceBurnVerified } from './announce.js';
import { advanceCctp, type CctpPaymentRecord } from './cctp-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { fail, waitFor, type CctpOutcome } from './burn-rules.js';
import type { RelayRoute } from './relayer-route.js';
import { ClaimTaken, payingBurn, deepEnough } from './steps.js';

/** The MessageSent the burn emitted: the last one of the transmitter before the DepositForBurn. */
const messageOf = (receipt: ReceiptFacts, r: RelayRoute, burnLogIndex: number): string | undefined => {
  const transmitter = getAddress(r.source.cctp!.messageTransmitter);
  return receipt.logs
    .map(decodeMessageSent)
    .filter((m) => m !== undefined && m.emitter === transmitter && m.logIndex < burnLogIndex)
    .at(-1)?.message;
};

/**
 * Burn step of the relayer flow: the transaction burned at least the quote's amountToBurn of the
 * source chain's USDC, from the payer, to the relay wallet on the merchant's chain, and only the
 * relay (or anyone) may receive it there. Deep enough, it is claimed for this payment and the
 * payment waits for its attestation.
 */
export const checkRelayedBurn = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  r: RelayRoute,
): Promise<CctpOutcome | undefined> => {
  const found = await payingBurn(ctx, p, r, r.relay);
  if (!('receipt' in found)) return found;
  const { receipt } = found;
  const burn = found.burn;
  if (burn.destinationCaller !== ZeroHash && addressFromWord(burn.destinationCaller) !== r.relay) {
    return fail(
      'burn_mismatch',
      `the burn lets only ${addressFromWord(burn.destinationCaller) ?? burn.destinationCaller} receive it on ${r.destination.name}, not the relay wallet ${r.relay}`,
    );
  }
  const message = messageOf(receipt, r, burn.logIndex);
  if (!message) return fail('not_a_burn', 'the burn transaction emitted no CCTP message');
  if (!(await deepEnough(r.sourceRpc, r.source, receipt.blockNumber)))
    return waitFor('burn confirmations', { steady: true });
  // A mint can only follow the burn: the search for it on the destination starts about here.
  const destinationHead = await r.destinationRpc.blockNumber();
  await ctx.db.transaction(async (trx) => {
    if (!(await claimTransaction(trx, r.source.chainId, p.burnTxHash, p.paymentId))) throw new ClaimTaken();
    const moved = await advanceCctp(trx, p.paymentId, 'burn', 'attestation', {
      destinationChainId: r.destination.chainId,
      burnBlock: receipt.blockNumber,
      burnedUnits: burn.amount,
      messageHash: keccak256(message),
      relayAddress: r.relay,
      merchantAddress: r.merchant,
      attestationSince: new Date(),
      mintSearchFrom: Math.max(0, destinationHead - ctx.transfers.logWindowBlocks),
    });
    if (!moved) return;
    await announceBurnVerified(ctx, trx, p, {
      source: r.source,
      destinationDomain: burn.destinationDomain,
      amount: burn.amount,
      blockNumber: receipt.blockNumber,
      mintRecipient: r.relay,
    });
  });
  return undefined;
};
