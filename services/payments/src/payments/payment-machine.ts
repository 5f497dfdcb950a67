import { PaymentStatus } from '@stablepay/contracts';
import {
  defineTransitions,
  nextStatuses,
  statusesLeadingTo as leadingTo,
  type StateMachine,
  type StateMachineDefinition,
} from '@stablepay/platform';
import { PAYMENT_STATUS_CHANGES, PAYMENTS } from '../db/tables.js';
import { toPayment } from '../db/rows.js';
import type { PaymentRecord } from '../records.js';

/** Statuses of payments still under way: the list filter `pending` covers all of them. */
export const IN_PROGRESS_STATUSES: readonly PaymentStatus[] = [
  'pending',
  'pending_attestation',
  'ready_to_mint',
  'minted_pending_transfer',
];

/**
 * The payment's transitions. Same-chain and bridge-kit payments go from `pending` straight to
 * `completed` or `failed`; the legacy relayer flow walks
 * pending_attestation → ready_to_mint → minted_pending_transfer → completed.
 */
export const PAYMENT_STATE_TRANSITIONS = defineTransitions<PaymentStatus, PaymentTransition>({
  awaitAttestation: { from: ['pending'], to: 'pending_attestation' },
  attest: { from: ['pending', 'pending_attestation'], to: 'ready_to_mint' },
  mint: { from: ['ready_to_mint'], to: 'minted_pending_transfer' },
  complete: { from: IN_PROGRESS_STATUSES, to: 'completed' },
  fail: { from: IN_PROGRESS_STATUSES, to: 'failed' },
});

export type PaymentTransition = 'awaitAttestation' | 'attest' | 'mint' | 'complete' | 'fail';

/** Where each payment status may go next. */
export const PAYMENT_TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = nextStatuses(
  PAYMENT_STATE_TRANSITIONS,
  PaymentStatus.options,
);

export const statusesLeadingTo = (to: PaymentStatus): PaymentStatus[] =>
  leadingTo(PAYMENT_STATE_TRANSITIONS, to);

export type PaymentMachine = StateMachine<PaymentStatus, PaymentTransition, PaymentRecord>;

/** Each status change also writes its row of the payment's history (see payment-history.ts). */
export const PAYMENT_MACHINE: StateMachineDefinition<PaymentStatus, PaymentTransition, PaymentRecord> = {
  entity: 'Payment',
  table: PAYMENTS,
  transitions: PAYMENT_STATE_TRANSITIONS,
  toRecord: toPayment,
  history: { table: PAYMENT_STATUS_CHANGES, recordColumn: 'payment_id' },
};
