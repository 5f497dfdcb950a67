import { z } from 'zod';
import { IsoTimestamp, Uuid } from '../shared/scalars.js';

/** Services that publish integration events. */
export const ServiceName = z.enum([
  'gateway',
  'payments',
  'chain-watcher',
  'refunds',
  'invoicing',
  'notifier',
]);
export type ServiceName = z.infer<typeof ServiceName>;

/** The payment an event's data is about and its merchant, both by internal UUID. */
export const eventPaymentFields = { paymentId: Uuid, merchantId: Uuid };

/**
 * Envelope of every message on the integration exchange (routing key = `type`). `data` is validated
 * separately against the catalogue entry for `type` + `version` (see parseEvent).
 */
export const IntegrationEventEnvelope = z.object({
  id: Uuid,
  type: z.string().min(1),
  version: z.number().int().min(1),
  occurredAt: IsoTimestamp,
  producer: z.string().min(1),
  correlationId: z.string().min(1),
  /** internal merchant UUID (not the public `<prefix>_live_<uuid>` id) */
  merchantId: z.string().min(1),
  data: z.unknown(),
});
export type IntegrationEventEnvelope = z.infer<typeof IntegrationEventEnvelope>;
