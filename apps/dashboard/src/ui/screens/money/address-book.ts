import type { ResponseOf } from '../../../api/operations.js';
import type { Translate } from '../../../i18n.js';

/** An entry of the withdrawal address book. */
export type WithdrawalAddress = ResponseOf<'listWithdrawalAddresses'>['addresses'][number];

export const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** What is left of a hold, as a person reads it: `23 h 59 min`, `4 min 10 s`, `12 s`. */
export const holdLeft = (ms: number, t: Translate): string => {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return t('durationHoursMinutes', { h, m });
  if (m > 0) return t('durationMinutesSeconds', { m, s });
  return t('durationSeconds', { s });
};
