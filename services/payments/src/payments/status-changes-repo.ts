import type { Knex } from 'knex';
import type { PaymentStatus } from '@stablepay/contracts';
import { PAYMENT_STATUS_CHANGES } from '../db/tables.js';

export interface StatusChangeRecord {
  status: PaymentStatus;
  changedAt: Date;
}

/** The statuses a payment entered after creation, oldest first (the payment machine's transitions write them). */
export const listStatusChanges = async (db: Knex, paymentId: string): Promise<StatusChangeRecord[]> => {
  const rows = (await db(PAYMENT_STATUS_CHANGES)
    .where({ payment_id: paymentId })
    .orderBy('id', 'asc')
    .select('status', 'changed_at')) as { status: PaymentStatus; changed_at: Date }[];
  return rows.map((r) => ({ status: r.status, changedAt: new Date(r.changed_at) }));
};
