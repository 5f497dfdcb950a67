import type { WithdrawalStatus } from '@stablepay/contracts';
import { defineStateMachine, type EventWriter, type StateMachine } from '@stablepay/platform';
import { WITHDRAWALS } from '../db/migrations.js';
import type { WithdrawalRecord } from './records.js';
import { WITHDRAWAL_STATE_TRANSITIONS, type WithdrawalTransition } from './withdrawal-rules.js';
import { toWithdrawal } from './withdrawals-repo.js';

export type WithdrawalMachine = StateMachine<WithdrawalStatus, WithdrawalTransition, WithdrawalRecord>;

/**
 * Every withdrawal status change: one guarded UPDATE, its events written in the same transaction.
 * The invoice is issued only as the withdrawal completes, so a moved row has none yet.
 */
export const withdrawalMachine = (writeEvent: EventWriter): WithdrawalMachine =>
  defineStateMachine({
    entity: 'Withdrawal',
    table: WITHDRAWALS,
    transitions: WITHDRAWAL_STATE_TRANSITIONS,
    toRecord: (row) => toWithdrawal({ ...row, invoice_id: null }),
    writeEvent,
  });
