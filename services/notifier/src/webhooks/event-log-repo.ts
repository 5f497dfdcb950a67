import type { Knex } from 'knex';
import type { WebhookDeliveryStatus, WebhookEventName } from '@stablepay/contracts';
import type { DeliveryTrigger } from '../delivery/deliveries-repo.js';
import { DELIVERIES, ENDPOINTS, EVENTS } from '../migrations.js';

export interface EventLogRecord {
  id: string;
  type: WebhookEventName;
  body: string;
  occurredAt: Date;
}

export interface EventDeliveryRecord {
  deliveryId: string;
  eventId: string;
  endpointId: string;
  endpointUrl: string;
  trigger: Exclude<DeliveryTrigger, 'test'>;
  status: WebhookDeliveryStatus;
  attempts: number;
}

/** One merchant's events (test events aside), newest first, with the total for paging. */
export const listMerchantEvents = async (
  db: Knex,
  merchantId: string,
  opts: { type?: WebhookEventName; limit: number; offset: number },
): Promise<{ events: EventLogRecord[]; total: number }> => {
  const base = () => {
    const q = db(EVENTS).where({ merchant_id: merchantId, is_test: false });
    return opts.type ? q.andWhere({ type: opts.type }) : q;
  };
  const [rows, [count]] = await Promise.all([
    base()
      .select('id', 'type', 'body', 'occurred_at')
      .orderBy([
        { column: 'occurred_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(opts.limit)
      .offset(opts.offset) as Promise<
      { id: string; type: WebhookEventName; body: string; occurred_at: Date }[]
    >,
    base().count<{ count: string | number }[]>({ count: '*' }),
  ]);
  return {
    events: rows.map((r) => ({ id: r.id, type: r.type, body: r.body, occurredAt: new Date(r.occurred_at) })),
    total: Number(count?.count ?? 0),
  };
};

/** The deliveries of these events to the merchant's endpoints, oldest first. */
export const listEventDeliveries = async (
  db: Knex,
  merchantId: string,
  eventIds: string[],
): Promise<EventDeliveryRecord[]> => {
  if (eventIds.length === 0) return [];
  const rows = (await db(`${DELIVERIES} as d`)
    .join(`${ENDPOINTS} as e`, 'e.id', 'd.endpoint_id')
    .where('d.merchant_id', merchantId)
    .whereIn('d.event_id', eventIds)
    .whereNot('d.trigger', 'test')
    .orderBy([
      { column: 'd.created_at', order: 'asc' },
      { column: 'd.id', order: 'asc' },
    ])
    .select('d.id', 'd.event_id', 'd.endpoint_id', 'e.url', 'd.trigger', 'd.status', 'd.attempts')) as {
    id: string;
    event_id: string;
    endpoint_id: string;
    url: string;
    trigger: EventDeliveryRecord['trigger'];
    status: WebhookDeliveryStatus;
    attempts: number;
  }[];
  return rows.map((r) => ({
    deliveryId: r.id,
    eventId: r.event_id,
    endpointId: r.endpoint_id,
    endpointUrl: r.url,
    trigger: r.trigger,
    status: r.status,
    attempts: r.attempts,
  }));
};
