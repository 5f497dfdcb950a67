import { getAddress } from 'ethers';
import { isSigned } from '../chain/attestation-api.js';
import { decodeCctpMessage, encodeReceiveMessage, isNonceUsed } from '../chain/cctp.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { wakeCctpPayment } from '../cctp/cctp-repo.js';
import type { CrossChainRoute } from './burn.js';
import { moveGasless, type GaslessPaymentRecord } from './gasless-repo.js';
import { waitFor, type GaslessWait } from './outcome.js';
import { advanceAction } from './relay-steps.js';
import { requestNetworkFee } from './network-fee.js';
import { countGasSpent, crossChainGasPaid, recordStepGas } from './relay-gas.js';

/**
 * Mint step of a cross-chain gasless payment: once Circle attested the relay's burn, the relay
 * receives the message on the merchant's chain unless someone did (Circle's forwarder, anyone: the
 * message mints to the merchant wallet whoever sends it). The message's nonce is received once, so
 * the transmitter is asked first, before sending and after any restart. The CCTP worker finds the
 * mint by that nonce and completes the payment; this payment's own work ends here.
 */
export const advanceRelayMint = async (
  ctx: WatcherContext,
  p: GaslessPaymentRecord,
  r: CrossChainRoute,
): Promise<GaslessWait | undefined> => {
  const api = ctx.cctp.attestation;
  if (!api) return waitFor('no attestation API is configured: the mint is left to the payment follower');
  // Asked at a growing interval: the CCTP worker asks the same API about this burn, and Circle
  // refuses every request for minutes once a client asks too often.
  const signed = (await api.messagesByTransaction(r.source.cctpDomain, p.burnTxHash!)).find(isSigned);
  if (!signed) return waitFor('the burn is not attested yet');
  const transmitter = getAddress(r.destination.cctp!.messageTransmitter);
  const { nonce, body } = decodeCctpMessage(signed.message);
  if (await isNonceUsed(r.destinationRpc, transmitter, nonce)) {
    // The CCTP row may have backed off for a minute while the attestation was awaited (or been left
    // by a replica that died after the mint): it looks for the mint now, so the payment completes
    // at once rather than at its next scheduled look.
    // The relay's mint, if it sent one (mined, or reverted because someone else received first).
    const gasWei = await crossChainGasPaid(ctx, p, r.destinationRpc, ['mint']);
    const moved = await ctx.db.transaction(async (trx) => {
      if (!(await moveGasless(trx, p.paymentId, 'mint', 'handed_over'))) return false;
      await recordStepGas(trx, p, r.destination.chainId, gasWei);
      // The merchant wallet now holds the payment: a merchant who bears the relay's gas pays it back there.
      await requestNetworkFee(ctx, trx, p, r.destination, 'USDC');
      await wakeCctpPayment(trx, p.paymentId);
      return true;
    });
    if (moved) countGasSpent(ctx, p, r.destination, gasWei);
    return undefined;
  }
  // A fast transfer's message is received only below its expiration block: one that the next block
  // reaches is signed again on request (Circle re-attests it, as standard once the burn is final),
  // and the next look mints what the API then returns.
  if (
    body.expirationBlock !== 0n &&
    body.expirationBlock <= BigInt((await r.destinationRpc.blockNumber()) + 1)
  ) {
    ctx.logger.info('attested message expired: asking for a new signature', {
      paymentId: p.paymentId,
      nonce,
    });
    if (!(await api.reattest(nonce))) return waitFor('the attestation API does not know the message nonce');
    return waitFor('the expired message was sent to be signed again');
  }
  const relayer = ctx.relayers.addressOn(r.destination.chainId);
  if (!relayer) return waitFor(`no relayer key for ${r.destination.name}: the mint is left to others`);
  const target = {
    chain: r.destination,
    rpc: r.destinationRpc,
    to: transmitter,
    data: encodeReceiveMessage(signed.message, signed.attestation),
  };
  const mint = await advanceAction(ctx, p, 'mint', target, relayer);
  // A success used the nonce: the next look hands the payment over.
  return mint.kind === 'waiting' ? mint.wait : waitFor('mint mined', { steady: true });
};
