import { expect } from 'chai';
import {
  CreateWebhookBody,
  EventTypes,
  WEBHOOK_EVENT_NAMES,
  createEvent,
  parseEvent,
} from '../../src/index.js';

const MERCHANT = '6f1d2c3b-4a59-4e7f-8a9b-0c1d2e3f4a5b';
const ENDPOINT = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const USER = '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e';
const ENDPOINT_EVENTS = [
  EventTypes.WebhookEndpointCreated,
  EventTypes.WebhookEndpointDeleted,
  EventTypes.WebhookEndpointSecretRegenerated,
];

const created = (data: Record<string, unknown>) =>
  JSON.parse(
    JSON.stringify({
      id: 'aa0e8400-e29b-41d4-a716-446655440000',
      type: EventTypes.WebhookEndpointCreated,
      version: 1,
      occurredAt: '2025-03-01T12:00:00.000Z',
      producer: 'notifier',
      correlationId: 'req-1',
      merchantId: MERCHANT,
      data,
    }),
  ) as unknown;

describe('webhook endpoint events', () => {
  const base = { merchantId: MERCHANT, endpointId: ENDPOINT, url: 'https://shop.example/hooks' };

  it('name the user or the API key that acted, exactly one of them', () => {
    const byUser = parseEvent(created({ ...base, callerKind: 'user', userId: USER, apiKeyId: null }));
    expect(byUser.ok).to.equal(true);
    const byKey = parseEvent(created({ ...base, callerKind: 'api_key', userId: null, apiKeyId: USER }));
    expect(byKey.ok).to.equal(true);
    for (const bad of [
      { ...base, callerKind: 'user', userId: null, apiKeyId: USER },
      { ...base, callerKind: 'api_key', userId: USER, apiKeyId: null },
      { ...base, callerKind: 'service', userId: null, apiKeyId: null },
      { ...base, callerKind: 'user', userId: USER, apiKeyId: null, endpointId: 'nope' },
    ]) {
      expect(parseEvent(created(bad)).ok, JSON.stringify(bad)).to.equal(false);
    }
  });

  it('are built by the notifier like any other event', () => {
    for (const type of ENDPOINT_EVENTS) {
      const event = createEvent({
        type,
        producer: 'notifier',
        correlationId: 'req-2',
        merchantId: MERCHANT,
        data: { ...base, callerKind: 'api_key', userId: null, apiKeyId: USER },
      });
      expect(event.version).to.equal(1);
      expect(parseEvent(JSON.parse(JSON.stringify(event))).ok, type).to.equal(true);
    }
  });

  it('are internal: never a webhook event a merchant can subscribe to', () => {
    for (const type of ENDPOINT_EVENTS) {
      expect(WEBHOOK_EVENT_NAMES as readonly string[], type).not.to.include(type);
      const subscribe = CreateWebhookBody.safeParse({ url: 'https://shop.example/hooks', events: [type] });
      expect(subscribe.success, type).to.equal(false);
    }
  });
});
