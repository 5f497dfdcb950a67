import { EventTypes } from '@stablepay/contracts';
import { getAddress } from 'ethers';
import { isSigned, type AttestedMessage } from '../chain/attestation-api.js';
import { addressFromWord, decodeCctpMessage, type CctpMessage } from '../chain/cctp.js';
import { advanceCctp, noteAttestationStatus, type CctpPaymentRecord } from './cctp-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { fail, waitFor, type CctpOutcome } from './burn-rules.js';
import type { RelayRoute } from './relayer-route.js';
import { duration, pastDeadline } from './steps.js';

export const COMPLETE = 'complete';

/** The attested message carries this burn: same domains, recipient, amount and payer. */
export const isOurMessage = (m: CctpMessage, p: CctpPaymentRecord, r: RelayRoute): boolean =>
  m.sourceDomain === r.source.cctpDomain &&
  m.destinationDomain === r.destination.cctpDomain &&
  addressFromWord(m.body.mintRecipient) === r.relay &&
  addressFromWord(m.body.burnToken) === getAddress(r.source.tokens.USDC!) &&
  addressFromWord(m.body.messageSender) === getAddress(p.fromAddress) &&
  m.body.amount === p.burnedUnits;

/** This burn's message among a transaction's, signed, if the API has signed it. */
export const signedMessageOf = (
  messages: AttestedMessage[],
  p: CctpPaymentRecord,
  r: RelayRoute,
):
  | { message: CctpMessage; attested: AttestedMessage & { message: string; attestation: string } }
  | undefined => {
  for (const attested of messages) {
    // Pending answers ("PENDING" or null attestation, "0x" or null message) are waited for.
    if (!isSigned(attested)) continue;
    try {
      const message = decodeCctpMessage(attested.message);
      if (isOurMessage(message, p, r)) return { message, attested };
    } catch {
      // Not a burn message: not ours.
    }
  }
  return undefined;
};

/** chain.cctp.attested, once per change of status (the payment mirrors it in cctp_attestation_status). */
const attestedEvent = (p: CctpPaymentRecord, attestationStatus: string) => ({
  paymentId: p.paymentId,
  flow: 'relayer' as const,
  burnTxHash: p.burnTxHash,
  messageHash: p.messageHash!,
  attestationStatus,
});

/**
 * Attestation step: asks the attestation API about the burn. Each new status is recorded and
 * published; once the message is signed, it and its attestation are kept for the mint. The API
 * being down or rate-limited is thrown (AttestationUnavailable) and retried with back-off; a burn
 * still unsigned after CCTP_ATTESTATION_WAIT_MS fails attestation_timeout.
 */
export const checkAttestation = async (
  ctx: WatcherContext,
  p: CctpPaymentRecord,
  r: RelayRoute,
): Promise<CctpOutcome | undefined> => {
  const since = p.attestationSince ?? p.paymentCreatedAt;
  const api = ctx.cctp.attestation;
  const timedOut = () =>
    fail(
      'attestation_timeout',
      `the burn was not attested within ${duration(ctx.cctp.attestationWaitMs)} of its verification`,
    );
  if (!api) {
    if (pastDeadline(since, ctx.cctp.attestationWaitMs)) return timedOut();
    return waitFor('no attestation API is configured (CCTP_ATTESTATION_URL)');
  }
  const messages = await api.messagesByTransaction(r.source.cctpDomain, p.burnTxHash);
  const signed = signedMessageOf(messages, p, r);
  if (signed) {
    await ctx.db.transaction(async (trx) => {
      const moved = await advanceCctp(trx, p.paymentId, 'attestation', 'mint', {
        attestationStatus: COMPLETE,
        messageNonce: signed.message.nonce,
        attestedMessage: signed.attested.message,
        attestation: signed.attested.attestation,
      });
      if (moved)
        await ctx.writeEvent(trx, EventTypes.ChainCctpAttested, p.merchantId, attestedEvent(p, COMPLETE));
    });
    return undefined;
  }
  // `pending_confirmations` while Iris waits for the burn's confirmations: mirrored on the payment.
  const status = messages.find((m) => m.status !== COMPLETE)?.status;
  if (status && status !== p.attestationStatus) {
    await ctx.db.transaction(async (trx) => {
      if (await noteAttestationStatus(trx, p.paymentId, status))
        await ctx.writeEvent(trx, EventTypes.ChainCctpAttested, p.merchantId, attestedEvent(p, status));
    });
  }
  if (pastDeadline(since, ctx.cctp.attestationWaitMs)) return timedOut();
  return waitFor(status ? `attestation ${status}` : 'the attestation API has not seen the burn yet');
};
