import type { Messages, Translate } from '../../../i18n.js';
import type { WebhookEventInfo } from './types.js';

/** The event's description in the page's language; the gateway's (English) one for an event we have no words for. */
export const eventDescription = (t: Translate, e: WebhookEventInfo): string => {
  const key = `event_${e.name.replaceAll('.', '_')}` as keyof Messages;
  return KNOWN.has(key) ? t(key) : e.description;
};

const KNOWN = new Set<string>([
  'event_payment_completed',
  'event_payment_failed',
  'event_refund_created',
  'event_refund_completed',
  'event_refund_failed',
  'event_checkout_session_completed',
  'event_checkout_session_expired',
  'event_withdrawal_completed',
  'event_withdrawal_failed',
  'event_invoice_issued',
]);
