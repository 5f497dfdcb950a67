import type { WebhookEventName } from '../webhooks/payloads.js';
import type { ExampleTable } from './example.js';
import { byId, ok, page, sample } from './objects.js';

const events = ['payment.completed'];

/** An endpoint as every read answers it; its creation adds the secret, shown that once. */
const endpoint = {
  id: sample.id,
  url: sample.webhookUrl,
  events,
  description: null,
  is_active: true,
  failure_count: 1,
  created_at: sample.at,
};

export const webhooksExamples: ExampleTable = {
  listWebhooks: { responses: { 200: ok([endpoint]) } },
  createWebhook: {
    request: { body: { url: sample.webhookUrl, events, description: 'Order fulfilment' } },
    responses: { 201: ok({ ...endpoint, secret: sample.webhookSecret }) },
  },
  listWebhookEvents: {
    responses: {
      200: ok([
        {
          name: 'payment.completed',
          description: 'Payment confirmed on-chain and credited to the merchant wallet.',
        },
      ]),
    },
  },
  listMerchantEvents: {
    responses: {
      200: ok(
        page('events', {
          id: sample.id,
          type: 'payment.completed',
          created_at: sample.at,
          data: {},
          deliveries: [
            {
              delivery_id: sample.id,
              endpoint_id: sample.id,
              endpoint_url: sample.link,
              trigger: 'event',
              status: 'pending',
              attempts: 1,
            },
          ],
        }),
      ),
    },
  },
  getWebhook: { request: byId(), responses: { 200: ok(endpoint) } },
  updateWebhook: {
    request: { body: { url: sample.webhookUrl, events, description: null, is_active: true }, ...byId() },
    responses: { 200: ok(endpoint) },
  },
  deleteWebhook: {
    request: byId(),
    responses: { 200: { success: true, message: 'Webhook endpoint deleted' } },
  },
  regenerateWebhookSecret: {
    request: byId(),
    responses: { 200: ok({ id: sample.id, secret: sample.webhookSecret }) },
  },
  testWebhook: {
    request: byId(),
    responses: {
      200: ok({ delivery_id: sample.id, status_code: 1, success: false, response_time_ms: 1, error: null }),
    },
  },
  getWebhookLogs: {
    request: byId(),
    responses: {
      200: ok({
        logs: [
          {
            id: sample.id,
            event_id: sample.id,
            event: 'payment.completed',
            status: 'pending',
            attempt: 1,
            response_status: 1,
            response_time_ms: 1,
            error: null,
            response_body_excerpt: '{"received":true}',
            payload: {},
            is_test: false,
            created_at: sample.at,
          },
        ],
      }),
    },
  },
  redeliverWebhook: {
    request: { params: { id: sample.id, deliveryId: sample.id } },
    responses: { 202: ok({ delivery_id: sample.id, event_id: sample.id, status: 'pending' }) },
  },
  replayWebhooks: {
    request: { body: { since: sample.at, events }, ...byId() },
    responses: { 202: ok({ queued: 1, since: sample.at }) },
  },
};

/** The withdrawal both its events speak of, and the invoice issued for it. */
const withdrawal = {
  withdrawal_id: '5c8e2a1f-6b3d-4f7a-9c0e-2d4f6a8b0c1e',
  amount: '1000.000000',
  fee: '5.000000',
  net_amount: '995.000000',
  currency: 'USDC',
  blockchain: 'BASE',
  destination_address: '0x2222222222222222222222222222222222222222',
};

/**
 * A body of each extension event, as docs/api/webhooks.md shows it; the contract and notifier tests
 * parse each with its event's schema, so the reference cannot drift from what is sent.
 */
export const webhookBodyExamples: Partial<Record<WebhookEventName, unknown>> = {
  'checkout.session.completed': {
    event: 'checkout.session.completed',
    timestamp: sample.at,
    data: {
      session_id: 'cs_live_7d3e1f2a-4b5c-4d6e-8f70-1a2b3c4d5e6f',
      status: 'complete',
      payment_id: '9b2f4c1e-3a5d-4e6f-8a7b-0c1d2e3f4a5b',
      amount: '49.900000',
      currency: 'USDC',
      completed_at: sample.at,
    },
  },
  'checkout.session.expired': {
    event: 'checkout.session.expired',
    timestamp: '2026-11-27T10:45:00.000Z',
    data: {
      session_id: 'cs_live_7d3e1f2a-4b5c-4d6e-8f70-1a2b3c4d5e6f',
      status: 'expired',
      expired_at: '2026-11-27T10:45:00.000Z',
    },
  },
  'withdrawal.completed': {
    event: 'withdrawal.completed',
    timestamp: sample.at,
    data: {
      ...withdrawal,
      status: 'completed',
      tx_hash: '0x3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c5e7b9d1f3a',
      fee_tx_hash: '0x8e6c4a2f0d8b6e4c2a0f8d6b4e2c0a8f6d4b2e0c8a6f4d2b0e8c6a4f2d0b8e6c',
      completed_at: sample.at,
    },
  },
  'withdrawal.failed': {
    event: 'withdrawal.failed',
    timestamp: sample.at,
    data: {
      ...withdrawal,
      status: 'failed',
      tx_hash: null,
      fee_tx_hash: null,
      failure_reason: 'The net transfer failed: transaction reverted',
      failed_at: sample.at,
    },
  },
  'invoice.issued': {
    event: 'invoice.issued',
    timestamp: '2026-11-27T10:16:00.000Z',
    data: {
      invoice_id: '8a1c3e5f-7b9d-4e2f-8a4c-6e8f0a2c4e6f',
      invoice_number: 'INV-2026-0042',
      withdrawal_id: withdrawal.withdrawal_id,
      issued_at: '2026-11-27T10:16:00.000Z',
      gross_amount: withdrawal.amount,
      service_fee: withdrawal.fee,
      service_fee_eur: '4.610000',
      tax_amount: '0.800000',
      net_amount: withdrawal.net_amount,
      currency: withdrawal.currency,
      blockchain: withdrawal.blockchain,
      tax_case: 'domestic',
      rectifies_invoice_id: null,
    },
  },
};
