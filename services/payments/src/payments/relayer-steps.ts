import type { Knex } from 'knex';
import type { PaymentStatus } from '@stablepay/contracts';
import { notFound } from '@stablepay/platform';
import type { PaymentsContext } from '../context.js';
import type { PaymentTransition } from './payment-machine.js';
import { transitionPayment, type TransitionResult } from './payment-state.js';
import { findPayment, recordPaymentFacts } from './payments-repo.js';

/*
 * The legacy relayer flow's intermediate steps. They publish nothing: the webhook events are
 * payment.completed and payment.failed.
 */

export type RelayerStatus = 'pending_attestation' | 'ready_to_mint' | 'minted_pending_transfer';

/** The transition that reaches each relayer status. */
const STEP_TO: Record<RelayerStatus, PaymentTransition> = {
  pending_attestation: 'awaitAttestation',
  ready_to_mint: 'attest',
  minted_pending_transfer: 'mint',
};

export interface RelayerStepFacts {
  cctpMessageHash?: string;
  /** the attestation API's status, mirrored for the public status view */
  cctpAttestationStatus?: string;
}

const relayerPatch = (facts: RelayerStepFacts & { mintTxHash?: string }): Record<string, unknown> => ({
  ...(facts.cctpMessageHash !== undefined ? { cctp_message_hash: facts.cctpMessageHash } : {}),
  ...(facts.cctpAttestationStatus !== undefined
    ? { cctp_attestation_status: facts.cctpAttestationStatus }
    : {}),
  ...(facts.mintTxHash !== undefined ? { mint_tx_hash: facts.mintTxHash.toLowerCase() } : {}),
});

/** One step of the relayer flow in a transaction of its own; a move the flow does not allow is a 409. */
export const advanceCrossChainPayment = (
  ctx: PaymentsContext,
  id: string,
  to: RelayerStatus,
  facts: RelayerStepFacts & { mintTxHash?: string } = {},
): Promise<TransitionResult> =>
  ctx.db.transaction((trx) => transitionPayment(ctx, trx, id, STEP_TO[to], { patch: relayerPatch(facts) }));

/** The legacy relayer flow's statuses before completion, in the order the flow reaches them. */
const RELAYER_PATH: readonly PaymentStatus[] = [
  'pending',
  'pending_attestation',
  'ready_to_mint',
  'minted_pending_transfer',
];

/**
 * A status passed over on the way to a later one is still what it says: a payment minted is past
 * a complete attestation.
 */
const IMPLIED: Partial<Record<PaymentStatus, Record<string, unknown>>> = {
  ready_to_mint: { cctp_attestation_status: 'complete' },
};

/**
 * A step of the legacy relayer flow as the chain-watcher reports it, in the caller's transaction.
 * The payment walks pending → pending_attestation → ready_to_mint → minted_pending_transfer one
 * guarded transition at a time, through every status on the way, so a report that overtakes an
 * earlier one (messages of one queue are handled concurrently) still leaves the payment where the
 * flow is. A report of a step the payment is past, or of a final payment, changes nothing; one of
 * the status it is in records its facts (a new attestation status).
 */
export const advanceRelayedPaymentIn = async (
  ctx: PaymentsContext,
  trx: Knex.Transaction,
  id: string,
  to: RelayerStatus,
  facts: RelayerStepFacts = {},
): Promise<TransitionResult> => {
  const patch = relayerPatch(facts);
  const target = RELAYER_PATH.indexOf(to);
  let payment = await findPayment(trx, id);
  if (!payment) throw notFound('Payment');
  let changed = false;
  for (;;) {
    const at = RELAYER_PATH.indexOf(payment.status);
    if (at < 0 || at > target) return { payment, changed };
    if (at === target) {
      if (changed || Object.keys(patch).length === 0) return { payment, changed };
      const noted = await ctx.payments.note(trx, id, [to], patch);
      if (noted) return { payment: noted, changed: false };
    } else {
      const next = RELAYER_PATH[at + 1] as RelayerStatus;
      const moved = await ctx.payments.apply(trx, id, STEP_TO[next], {
        from: [payment.status],
        patch: next === to ? patch : (IMPLIED[next] ?? {}),
      });
      if (moved.applied) {
        payment = moved.record;
        changed = true;
        continue;
      }
    }
    // Another transaction moved it first: look again.
    const current = await findPayment(trx, id);
    if (!current) throw notFound('Payment');
    payment = current;
  }
};

/** The relay's mint: its hash is kept whatever the status, and the payment is past ready_to_mint. */
export const recordRelayedMintIn = async (
  ctx: PaymentsContext,
  trx: Knex.Transaction,
  id: string,
  mintTxHash: string,
): Promise<TransitionResult> => {
  await recordPaymentFacts(trx, id, { mint_tx_hash: mintTxHash.toLowerCase() });
  return advanceRelayedPaymentIn(ctx, trx, id, 'minted_pending_transfer');
};

/**
 * The burn of a bridge-kit payment, once verified. A customer's payment names its burn when it is
 * created; a gasless one has none until the relay burns what it received, so the first verified
 * burn is recorded and a named one is never replaced.
 */
export const recordBridgeKitBurnIn = async (
  trx: Knex.Transaction,
  id: string,
  burnTxHash: string,
): Promise<void> => {
  await recordPaymentFacts(
    trx,
    id,
    { burn_tx_hash: burnTxHash.toLowerCase() },
    { unlessKnown: 'burn_tx_hash' },
  );
};

/**
 * The mint of a bridge-kit payment, as the chain-watcher found it. It arrives with the verdict and
 * may be applied before or after it, so it only records the hash and never moves the status.
 */
export const recordBridgeKitMintIn = async (
  trx: Knex.Transaction,
  id: string,
  mintTxHash: string,
): Promise<void> => {
  await recordPaymentFacts(trx, id, { mint_tx_hash: mintTxHash.toLowerCase() });
};
