import type { Knex } from 'knex';
import type { Language, WebhookEventName } from '@stablepay/contracts';
import { preparedRaw, type MerchantContact, type MerchantContactRow } from '@stablepay/platform';
import { merchants } from '../mail/mail-repo.js';
import { ENDPOINTS, EVENTS, MERCHANTS, PAYMENT_CUSTOMERS } from '../migrations.js';
import type { EndpointRecord } from '../webhooks/endpoints-repo.js';

export type SubscribedEndpoint = Pick<EndpointRecord, 'id' | 'url' | 'secretSealed'>;

export interface ArrivingEvent {
  id: string;
  merchantId: string;
  type: WebhookEventName;
  body: string;
  occurredAt: string;
  /** payment.completed's payer, kept for the refund's e-mail (refund.completed does not carry it) */
  customer?: { paymentId: string; email: string; language: Language };
  /** The event calls for an e-mail: the merchant's contact is read with the endpoints. */
  withMerchant: boolean;
}

export interface EventIntake {
  endpoints: SubscribedEndpoint[];
  merchant: MerchantContact | undefined;
}

type IntakeRow = Partial<MerchantContactRow> & {
  endpoint_id: string | null;
  url: string | null;
  secret_sealed: string | null;
};

const storeEvent = `stored as (
    insert into ${EVENTS} (id, merchant_id, type, body, occurred_at, is_test)
    values (?, ?, ?, ?, ?, false)
    on conflict (id) do nothing)`;
const rememberCustomer = `customer as (
    insert into ${PAYMENT_CUSTOMERS} (payment_id, merchant_id, customer_email, language)
    values (?, ?, ?, ?)
    on conflict (payment_id) do nothing)`;
// One row whatever matches: the merchant's columns (null when not asked for or not known) beside
// each subscribed endpoint, or beside none.
const readEndpointsAndMerchant = `
  select e.id as endpoint_id, e.url, e.secret_sealed,
         m.merchant_id, m.public_id, m.name, m.email, m.email_confirmed, m.language
    from (select 1) as one
    left join ${MERCHANTS} m on ?::boolean and m.merchant_id = ?
    left join ${ENDPOINTS} e on e.merchant_id = ? and e.is_active and e.events @> ?::jsonb`;
const intakeSql = {
  withCustomer: `with ${storeEvent}, ${rememberCustomer} ${readEndpointsAndMerchant}`,
  withoutCustomer: `with ${storeEvent} ${readEndpointsAndMerchant}`,
};

/**
 * A deliverable event's reads and writes before its deliveries, in one statement: the event stored
 * once with its exact body (a second copy of the same id changes nothing), payment.completed's
 * payer remembered once, the merchant's active endpoints subscribed to the event, and the
 * merchant's contact when an e-mail is to be written. The event row is in before the deliveries
 * that refer to it are created, and the payer before a later refund.completed in the same
 * transaction looks for it.
 */
export const takeInEvent = async (trx: Knex.Transaction, e: ArrivingEvent): Promise<EventIntake> => {
  const c = e.customer;
  const bindings = [
    e.id,
    e.merchantId,
    e.type,
    e.body,
    e.occurredAt,
    ...(c ? [c.paymentId, e.merchantId, c.email, c.language] : []),
    e.withMerchant,
    e.merchantId,
    e.merchantId,
    JSON.stringify([e.type]),
  ];
  const { rows } = await preparedRaw<{ rows: IntakeRow[] }>(
    trx,
    c ? intakeSql.withCustomer : intakeSql.withoutCustomer,
    bindings,
  );
  const first = rows[0];
  return {
    endpoints: rows
      .filter((r) => r.endpoint_id !== null)
      .map((r) => ({ id: r.endpoint_id!, url: r.url!, secretSealed: r.secret_sealed! })),
    merchant: first?.merchant_id ? merchants.contactOf(first as MerchantContactRow) : undefined,
  };
};
