import type { CheckoutSessionStatus } from '@stablepay/contracts';
import { defineTransitions, type StateMachine, type StateMachineDefinition } from '@stablepay/platform';
import { CHECKOUT_SESSIONS } from '../db/tables.js';
import { toSession } from '../db/rows.js';
import type { CheckoutSessionRecord } from '../records.js';

/** An open session is completed by its payment or expires unpaid; both are final. */
export const SESSION_TRANSITIONS = defineTransitions<CheckoutSessionStatus, SessionTransition>({
  complete: { from: ['open'], to: 'complete' },
  expire: { from: ['open'], to: 'expired' },
});

export type SessionTransition = 'complete' | 'expire';

export type SessionMachine = StateMachine<CheckoutSessionStatus, SessionTransition, CheckoutSessionRecord>;

export const SESSION_MACHINE: StateMachineDefinition<
  CheckoutSessionStatus,
  SessionTransition,
  CheckoutSessionRecord
> = {
  entity: 'Checkout session',
  table: CHECKOUT_SESSIONS,
  transitions: SESSION_TRANSITIONS,
  toRecord: toSession,
};
