import type { MerchantEvent, MerchantEventListQuery } from '@stablepay/contracts';
import { listEventDeliveries, listMerchantEvents } from './event-log-repo.js';
import type { NotifierContext } from '../context.js';

/**
 * The merchant's events as its endpoints were sent them: each stored once with the exact body that
 * goes out, so `data` here is what a receiver got. An event no endpoint was subscribed to is still
 * listed, with no delivery.
 */
export const merchantEventLog = async (
  ctx: NotifierContext,
  merchantId: string,
  query: MerchantEventListQuery,
): Promise<{ events: MerchantEvent[]; total: number }> => {
  const { events, total } = await listMerchantEvents(ctx.db, merchantId, query);
  const deliveries = await listEventDeliveries(
    ctx.db,
    merchantId,
    events.map((e) => e.id),
  );
  return {
    total,
    events: events.map((e) => ({
      id: e.id,
      type: e.type,
      created_at: e.occurredAt.toISOString(),
      data: (JSON.parse(e.body) as { data: Record<string, unknown> }).data,
      deliveries: deliveries
        .filter((d) => d.eventId === e.id)
        .map((d) => ({
          delivery_id: d.deliveryId,
          endpoint_id: d.endpointId,
          endpoint_url: d.endpointUrl,
          trigger: d.trigger,
          status: d.status,
          attempts: d.attempts,
        })),
    })),
  };
};
