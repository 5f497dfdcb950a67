import type { WithdrawalAddress } from '@stablepay/contracts';
import type { WithdrawalAddressRecord } from './records.js';

export const toWithdrawalAddressView = (a: WithdrawalAddressRecord): WithdrawalAddress => ({
  id: a.id,
  address: a.address,
  label: a.label,
  status: a.removedAt ? 'removed' : a.usable ? 'active' : 'on_hold',
  created_at: a.createdAt.toISOString(),
  usable_from: a.usableFrom.toISOString(),
  removed_at: a.removedAt?.toISOString() ?? null,
});
