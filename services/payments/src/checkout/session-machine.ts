import type { CheckoutSessionStatus } from '@stablepay/contracts';
import {
  defineStateMachine,
  defineTransitions,
  type EventWriter,
  type StateMachine,
} from '@stablepay/platform';
import { CHECKOUT_SESSIONS } from '../db/migrations.js';
import { toSession } from '../db/rows.js';
import type { CheckoutSessionRecord } from '../records.js';

/** An open session is completed by its payment or expires unpaid; both are final. */
export const SESSION_TRANSITIONS = defineTransitions<CheckoutSessionStatus, SessionTransition>({
  complete: { from: ['open'], to: 'complete' },
  expire: { from: ['open'], to: 'expired' },
});

export type SessionTransition = 'complete' | 'expire';

export type SessionMachine = StateMachine<CheckoutSessionStatus, SessionTransition, CheckoutSessionRecord>;

export const sessionMachine = (writeEvent: EventWriter): SessionMachine =>
  defineStateMachine({
    entity: 'Checkout session',
    table: CHECKOUT_SESSIONS,
    transitions: SESSION_TRANSITIONS,
    toRecord: toSession,
    writeEvent,
  });
