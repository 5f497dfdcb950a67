import type { WithdrawalStatus } from '@stablepay/contracts';
import type { Leg } from './records.js';

/**
 * Where each withdrawal status may go next: the first submission makes it processing, both
 * confirmations complete it, any failed transfer fails it.
 */
export const WITHDRAWAL_TRANSITIONS: Readonly<Record<WithdrawalStatus, readonly WithdrawalStatus[]>> = {
  requested: ['processing', 'completed', 'failed'],
  processing: ['completed', 'failed'],
  completed: [],
  failed: [],
};

export const statusesLeadingTo = (to: WithdrawalStatus): WithdrawalStatus[] =>
  (Object.keys(WITHDRAWAL_TRANSITIONS) as WithdrawalStatus[]).filter((from) =>
    WITHDRAWAL_TRANSITIONS[from].includes(to),
  );

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
