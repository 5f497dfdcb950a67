import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { pickLanguage, type Language } from '@stablepay/contracts';
import { merchantContacts, type BatchedWrite, type Db } from '@stablepay/platform';
import { EMAILS, MERCHANTS, PAYMENT_CUSTOMERS } from '../migrations.js';

/**
 * merchant.created, merchant.email_confirmed and merchant.settings_updated, projected: the merchant's
 * name, address and language for the notices it is sent, and nothing sent to the address before it
 * is confirmed.
 */
export const merchants = merchantContacts({
  table: MERCHANTS,
  touchedColumn: 'updated_at',
  keepLanguage: true,
});

export const findMerchant = merchants.find;

export const customerOfPayment = async (
  db: Db,
  merchantId: string,
  paymentId: string,
): Promise<{ email: string; language: Language } | undefined> => {
  const row = (await db(PAYMENT_CUSTOMERS)
    .where({ payment_id: paymentId, merchant_id: merchantId })
    .first('customer_email', 'language')) as { customer_email: string; language: string | null } | undefined;
  // Customers remembered before languages were kept are written to in English.
  return row && { email: row.customer_email, language: pickLanguage(row.language, []) };
};

/** A document attached when the message is sent, fetched from the service that owns it. */
export interface AttachmentRef {
  kind: 'invoice_pdf';
  /** the invoice id */
  id: string;
  fileName: string;
}

export interface OutgoingEmail {
  eventId: string;
  template: string;
  recipient: string;
  merchantId: string | null;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  attachment?: AttachmentRef | null;
}

/**
 * Queues each message once per (event, template, recipient), in one statement for all the units of
 * a consumer's batch (their messages are handed over with `writeBatched`): the unique constraint,
 * not a prior check, decides, so concurrent or repeated handling of one event cannot queue one twice.
 */
export const enqueueEmails: BatchedWrite<OutgoingEmail[]> = async (db, units) => {
  const messages = units.flat();
  if (messages.length === 0) return;
  await db(EMAILS)
    .insert(
      messages.map((m) => ({
        id: randomUUID(),
        event_id: m.eventId,
        template: m.template,
        recipient: m.recipient,
        merchant_id: m.merchantId,
        subject: m.subject,
        text_body: m.text,
        html_body: m.html,
        message_id: m.messageId,
        attachment: m.attachment ? JSON.stringify(m.attachment) : null,
      })),
    )
    .onConflict(['event_id', 'template', 'recipient'])
    .ignore();
};

export interface ClaimedEmail extends OutgoingEmail {
  id: string;
  attempts: number;
  leaseToken: string;
}

const attachmentOf = (v: unknown): AttachmentRef | null =>
  v === null || v === undefined ? null : ((typeof v === 'string' ? JSON.parse(v) : v) as AttachmentRef);

/** Leases due messages (SKIP LOCKED): replicas share the outbox and never hold the same message. */
export const claimDueEmails = async (db: Knex, limit: number, leaseMs: number): Promise<ClaimedEmail[]> => {
  const token = randomUUID();
  const result = (await db.raw(
    `update ${EMAILS} m
        set locked_until = now() + (? * interval '1 millisecond'), lease_token = ?, attempts = m.attempts + 1
      where m.id in (
        select id from ${EMAILS}
         where status = 'pending' and next_attempt_at <= now()
           and (locked_until is null or locked_until < now())
         order by next_attempt_at
         limit ?
         for update skip locked)
     returning m.*`,
    [leaseMs, token, limit],
  )) as { rows: Array<Record<string, unknown>> };
  return result.rows.map((r) => ({
    id: r.id as string,
    eventId: r.event_id as string,
    template: r.template as string,
    recipient: r.recipient as string,
    merchantId: r.merchant_id as string | null,
    subject: r.subject as string,
    text: r.text_body as string,
    html: r.html_body as string,
    messageId: r.message_id as string,
    attachment: attachmentOf(r.attachment),
    attempts: r.attempts as number,
    leaseToken: r.lease_token as string,
  }));
};

/**
 * Marks messages sent, each only while its lease is still ours and it is not already marked; one
 * statement for a batch. Returns the template of each message it marked.
 */
export const markEmailsSent = async (
  db: Knex,
  emails: Array<Pick<ClaimedEmail, 'id' | 'leaseToken'>>,
): Promise<string[]> => {
  if (emails.length === 0) return [];
  const rows = (await db(EMAILS)
    .whereIn(
      ['id', 'lease_token'],
      emails.map((e) => [e.id, e.leaseToken]),
    )
    .where({ status: 'pending' })
    .update({
      status: 'sent',
      sent_at: db.fn.now(),
      locked_until: null,
      lease_token: null,
      last_error: null,
    })
    .returning('template')) as Array<{ template: string }>;
  return rows.map((r) => r.template);
};

/** A failed send: again after `retryInMs`, or `failed` for good when there is no retry left. */
export const markEmailFailed = async (
  db: Knex,
  e: Pick<ClaimedEmail, 'id' | 'leaseToken'>,
  error: string,
  retryInMs: number | undefined,
): Promise<void> => {
  await db(EMAILS)
    .where({ id: e.id, lease_token: e.leaseToken, status: 'pending' })
    .update({
      status: retryInMs === undefined ? 'failed' : 'pending',
      next_attempt_at:
        retryInMs === undefined ? db.fn.now() : db.raw(`now() + (? * interval '1 millisecond')`, [retryInMs]),
      locked_until: null,
      lease_token: null,
      last_error: error.slice(0, 1000),
    });
};
