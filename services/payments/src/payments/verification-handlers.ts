import { EventTypes, type EventType } from '@stablepay/contracts';
import { isAppError, type EventHandler, type EventHandlers, type Logger } from '@stablepay/platform';
import {
  applyPaymentRejectionIn,
  applyTopUpRejectedIn,
  applyTopUpVerifiedIn,
} from '../checkout/top-up-verdicts.js';
import type { PaymentsContext } from '../context.js';
import { completePaymentIn, failPaymentIn } from './payment-state.js';
import {
  advanceRelayedPaymentIn,
  recordBridgeKitBurnIn,
  recordBridgeKitMintIn,
  recordRelayedMintIn,
} from './relayer-steps.js';

/**
 * The chain-watcher's verdicts (same-chain, and cross-chain through CCTP) move payments to their
 * final status. A verdict for a payment that
 * already reached the other final status is stale (the payment's state wins) and is dropped with a
 * warning rather than retried forever.
 */
export const verificationHandlers = (ctx: PaymentsContext, logger: Logger): EventHandlers => {
  const applying =
    <T extends EventType>(apply: EventHandler<T>): EventHandler<T> =>
    async (event, trx) => {
      try {
        await apply(event, trx);
      } catch (err) {
        if (isAppError(err) && err.kind === 'conflict') {
          logger.warn('verdict for a payment in a final status ignored', {
            eventId: event.id,
            type: event.type,
            error: err.message,
          });
          return;
        }
        throw err;
      }
    };
  return {
    [EventTypes.ChainPaymentVerified]: applying(async ({ data }, trx) => {
      await completePaymentIn(ctx, trx, data.paymentId, {
        receivedAmount: data.receivedAmount,
        cctpFeeAmount: data.cctpFeeAmount,
        mintTxHash: data.mintTxHash,
        minedAt: new Date(data.blockTimestamp),
        txHash: data.txHash,
      });
    }),
    // An underpaid session payment may wait for a top-up instead of failing (checkout/top-up-verdicts.ts).
    [EventTypes.ChainPaymentRejected]: applying(async ({ data }, trx) => {
      await applyPaymentRejectionIn(ctx, trx, data);
    }),
    [EventTypes.ChainTopUpVerified]: applying(async ({ data }, trx) => {
      await applyTopUpVerifiedIn(ctx, trx, data, logger);
    }),
    [EventTypes.ChainTopUpRejected]: applying(async ({ data }, trx) => {
      await applyTopUpRejectedIn(ctx, trx, data);
    }),
    // Legacy relayer flow: the burn is verified, so the attestation is awaited. Bridge kit: the burn's
    // hash, which a gasless payment learns only now (the relay burned what the customer authorised).
    [EventTypes.ChainCctpBurnVerified]: async ({ data }, trx) => {
      if (data.flow === 'relayer')
        await advanceRelayedPaymentIn(ctx, trx, data.paymentId, 'pending_attestation');
      else await recordBridgeKitBurnIn(trx, data.paymentId, data.burnTxHash);
    },
    // Each new attestation status is mirrored; a complete one makes the payment ready to mint.
    [EventTypes.ChainCctpAttested]: async ({ data }, trx) => {
      if (data.flow !== 'relayer') return;
      await advanceRelayedPaymentIn(
        ctx,
        trx,
        data.paymentId,
        data.attestationStatus === 'complete' ? 'ready_to_mint' : 'pending_attestation',
        { cctpMessageHash: data.messageHash, cctpAttestationStatus: data.attestationStatus },
      );
    },
    // Cross-chain: the mint's hash. Bridge kit completes on the verdict (chain.payment.verified); the
    // relayer flow's mint leaves the transfer to the merchant to do.
    [EventTypes.ChainCctpMinted]: async ({ data }, trx) => {
      if (data.flow === 'bridge_kit') await recordBridgeKitMintIn(trx, data.paymentId, data.mintTxHash);
      else await recordRelayedMintIn(ctx, trx, data.paymentId, data.mintTxHash);
    },
    // Relayer flow: merchantReceives reached the merchant wallet; the hash goes into the webhook.
    [EventTypes.ChainCctpTransferred]: applying(async ({ data }, trx) => {
      await completePaymentIn(ctx, trx, data.paymentId, {
        receivedAmount: data.amount,
        cctpFeeAmount: data.cctpFeeAmount,
        merchantTransferTxHash: data.transferTxHash,
      });
    }),
    [EventTypes.ChainCctpFailed]: applying(async ({ data }, trx) => {
      await failPaymentIn(ctx, trx, data.paymentId, data.reason, {
        detail: data.detail,
        receivedAmount: data.receivedAmount,
        cctpFeeAmount: data.cctpFeeAmount,
      });
    }),
  };
};
