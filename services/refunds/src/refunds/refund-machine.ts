import type { RefundStatus } from '@stablepay/contracts';
import { defineStateMachine, type EventWriter, type StateMachine } from '@stablepay/platform';
import { REFUNDS } from '../db/migrations.js';
import type { RefundRecord } from './records.js';
import { toRefund } from './refunds-repo.js';
import { REFUND_STATE_TRANSITIONS, type RefundTransition } from './rules.js';

export type RefundMachine = StateMachine<RefundStatus, RefundTransition, RefundRecord>;

/** Every refund status change: one guarded UPDATE, its events written in the same transaction. */
export const refundMachine = (writeEvent: EventWriter): RefundMachine =>
  defineStateMachine({
    entity: 'Refund',
    table: REFUNDS,
    transitions: REFUND_STATE_TRANSITIONS,
    toRecord: toRefund,
    writeEvent,
  });
