import type { WebhookEventName } from '../webhooks/payloads.js';
import type { ExampleTable } from './example.js';

export const webhooksExamples: ExampleTable = {
  listWebhooks: {
    responses: {
      200: {
        success: true,
        data: [
          {
            id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
            url: 'https://shop.example/webhooks/stablepay',
            events: ['payment.completed'],
            description: null,
            is_active: true,
            failure_count: 1,
            created_at: '2026-11-27T10:15:00.000Z',
          },
        ],
      },
    },
  },
  createWebhook: {
    request: {
      body: {
        url: 'https://shop.example/webhooks/stablepay',
        events: ['payment.completed'],
        description: 'Order fulfilment',
      },
    },
    responses: {
      201: {
        success: true,
        data: {
          id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          url: 'https://shop.example/webhooks/stablepay',
          events: ['payment.completed'],
          description: null,
          is_active: true,
          failure_count: 1,
          created_at: '2026-11-27T10:15:00.000Z',
          secret: 'whsec_c2VjcmV0LWtleS1ieXRlcy1mb3ItZG9jcw==',
        },
      },
    },
  },
  listWebhookEvents: {
    responses: {
      200: {
        success: true,
        data: [
          {
            name: 'payment.completed',
            description: 'Payment confirmed on-chain and credited to the merchant wallet.',
          },
        ],
      },
    },
  },
  listMerchantEvents: {
    responses: {
      200: {
        success: true,
        data: {
          events: [
            {
              id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
              type: 'payment.completed',
              created_at: '2026-11-27T10:15:00.000Z',
              data: {},
              deliveries: [
                {
                  delivery_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
                  endpoint_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
                  endpoint_url: 'https://shop.example/x',
                  trigger: 'event',
                  status: 'pending',
                  attempts: 1,
                },
              ],
            },
          ],
          total: 1,
          limit: 20,
          offset: 0,
        },
      },
    },
  },
  getWebhook: {
    request: {
      params: {
        id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          url: 'https://shop.example/webhooks/stablepay',
          events: ['payment.completed'],
          description: null,
          is_active: true,
          failure_count: 1,
          created_at: '2026-11-27T10:15:00.000Z',
        },
      },
    },
  },
  updateWebhook: {
    request: {
      body: {
        url: 'https://shop.example/webhooks/stablepay',
        events: ['payment.completed'],
        description: null,
        is_active: true,
      },
      params: {
        id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          url: 'https://shop.example/webhooks/stablepay',
          events: ['payment.completed'],
          description: null,
          is_active: true,
          failure_count: 1,
          created_at: '2026-11-27T10:15:00.000Z',
        },
      },
    },
  },
  deleteWebhook: {
    request: {
      params: {
        id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {
      200: {
        success: true,
        message: 'Webhook endpoint deleted',
      },
    },
  },
  regenerateWebhookSecret: {
    request: {
      params: {
        id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          secret: 'whsec_c2VjcmV0LWtleS1ieXRlcy1mb3ItZG9jcw==',
        },
      },
    },
  },
  testWebhook: {
    request: {
      params: {
        id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          delivery_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          status_code: 1,
          success: false,
          response_time_ms: 1,
          error: null,
        },
      },
    },
  },
  getWebhookLogs: {
    request: {
      params: {
        id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          logs: [
            {
              id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
              event_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
              event: 'payment.completed',
              status: 'pending',
              attempt: 1,
              response_status: 1,
              response_time_ms: 1,
              error: null,
              response_body_excerpt: '{"received":true}',
              payload: {},
              is_test: false,
              created_at: '2026-11-27T10:15:00.000Z',
            },
          ],
        },
      },
    },
  },
  redeliverWebhook: {
    request: {
      params: {
        id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
        deliveryId: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {
      202: {
        success: true,
        data: {
          delivery_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          event_id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
          status: 'pending',
        },
      },
    },
  },
  replayWebhooks: {
    request: {
      body: {
        since: '2026-11-27T10:15:00.000Z',
        events: ['payment.completed'],
      },
      params: {
        id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
      },
    },
    responses: {
      202: {
        success: true,
        data: {
          queued: 1,
          since: '2026-11-27T10:15:00.000Z',
        },
      },
    },
  },
};

/**
 * A body of each extension event, as docs/api/webhooks.md shows it; the contract and notifier tests
 * parse each with its event's schema, so the reference cannot drift from what is sent.
 */
export const webhookBodyExamples: Partial<Record<WebhookEventName, unknown>> = {
  'checkout.session.completed': {
    event: 'checkout.session.completed',
    timestamp: '2026-11-27T10:15:00.000Z',
    data: {
      session_id: 'cs_live_7d3e1f2a-4b5c-4d6e-8f70-1a2b3c4d5e6f',
      status: 'complete',
      payment_id: '9b2f4c1e-3a5d-4e6f-8a7b-0c1d2e3f4a5b',
      amount: '49.900000',
      currency: 'USDC',
      completed_at: '2026-11-27T10:15:00.000Z',
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
    timestamp: '2026-11-27T10:15:00.000Z',
    data: {
      withdrawal_id: '5c8e2a1f-6b3d-4f7a-9c0e-2d4f6a8b0c1e',
      amount: '1000.000000',
      fee: '5.000000',
      net_amount: '995.000000',
      currency: 'USDC',
      blockchain: 'BASE',
      destination_address: '0x2222222222222222222222222222222222222222',
      status: 'completed',
      tx_hash: '0x3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c5e7b9d1f3a',
      fee_tx_hash: '0x8e6c4a2f0d8b6e4c2a0f8d6b4e2c0a8f6d4b2e0c8a6f4d2b0e8c6a4f2d0b8e6c',
      completed_at: '2026-11-27T10:15:00.000Z',
    },
  },
  'withdrawal.failed': {
    event: 'withdrawal.failed',
    timestamp: '2026-11-27T10:15:00.000Z',
    data: {
      withdrawal_id: '5c8e2a1f-6b3d-4f7a-9c0e-2d4f6a8b0c1e',
      amount: '1000.000000',
      fee: '5.000000',
      net_amount: '995.000000',
      currency: 'USDC',
      blockchain: 'BASE',
      destination_address: '0x2222222222222222222222222222222222222222',
      status: 'failed',
      tx_hash: null,
      fee_tx_hash: null,
      failure_reason: 'The net transfer failed: transaction reverted',
      failed_at: '2026-11-27T10:15:00.000Z',
    },
  },
  'invoice.issued': {
    event: 'invoice.issued',
    timestamp: '2026-11-27T10:16:00.000Z',
    data: {
      invoice_id: '8a1c3e5f-7b9d-4e2f-8a4c-6e8f0a2c4e6f',
      invoice_number: 'INV-2026-0042',
      withdrawal_id: '5c8e2a1f-6b3d-4f7a-9c0e-2d4f6a8b0c1e',
      issued_at: '2026-11-27T10:16:00.000Z',
      gross_amount: '1000.000000',
      service_fee: '5.000000',
      service_fee_eur: '4.610000',
      tax_amount: '0.800000',
      net_amount: '995.000000',
      currency: 'USDC',
      blockchain: 'BASE',
      tax_case: 'domestic',
      rectifies_invoice_id: null,
    },
  },
};
