import { WithdrawalStatus } from '@stablepay/contracts';
import { defineTransitions, nextStatuses, statusesLeadingTo as leadingTo } from '@stablepay/platform';
import type { Leg } from './records.js';

export type WithdrawalTransition = 'process' | 'complete' | 'fail';

/**
 * The withdrawal's transitions: the first submission makes it processing, both confirmations
 * complete it, any failed transfer fails it.
 */
export const WITHDRAWAL_STATE_TRANSITIONS = defineTransitions<WithdrawalStatus, WithdrawalTransition>({
  process: { from: ['requested'], to: 'processing' },
  complete: { from: ['requested', 'processing'], to: 'completed' },
  fail: { from: ['requested', 'processing'], to: 'failed' },
});

/** Where each withdrawal status may go next. */
export const WITHDRAWAL_TRANSITIONS: Readonly<Record<WithdrawalStatus, readonly WithdrawalStatus[]>> =
  nextStatuses(WITHDRAWAL_STATE_TRANSITIONS, WithdrawalStatus.options);

export const statusesLeadingTo = (to: WithdrawalStatus): WithdrawalStatus[] =>
  leadingTo(WITHDRAWAL_STATE_TRANSITIONS, to);

/**
 * The chain-watcher's idempotency key of each transfer, derived from the withdrawal id: the same
 * withdrawal can never produce a second transfer of either kind.
 */
export const transferKey = (withdrawalId: string, leg: Leg): string => `withdrawal:${withdrawalId}:${leg}`;

const KEY_RE =
  /^withdrawal:([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}):(net|fee)$/;

export const parseTransferKey = (key: string): { withdrawalId: string; leg: Leg } | undefined => {
  const m = KEY_RE.exec(key);
  return m ? { withdrawalId: m[1]!.toLowerCase(), leg: m[2] as Leg } : undefined;
};

export const legName = (leg: Leg): string => (leg === 'net' ? 'transfer to the destination' : 'fee transfer');

export const isZeroAddress = (address: string): boolean => /^0x0{40}$/i.test(address);
