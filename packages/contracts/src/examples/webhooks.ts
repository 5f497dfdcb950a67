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
