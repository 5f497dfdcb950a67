import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { EventTypes, parseEvent } from '@stablepay/contracts';
import { signInternalToken } from '@stablepay/platform';
import { TEST_INTERNAL_SECRET, waitFor, type EventObserver } from '@stablepay/platform/testing';
import { startHarness, type Harness } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

const API = '/merchant-webhooks/api';
const DASHBOARD = '/merchant-webhooks';
const CHANGES = [
  EventTypes.WebhookEndpointCreated,
  EventTypes.WebhookEndpointDeleted,
  EventTypes.WebhookEndpointSecretRegenerated,
];

describe('webhook endpoint changes are published for the audit log', function () {
  this.timeout(30_000);
  let h: Harness;
  let rx: Receiver;
  let seen: EventObserver;

  before(async () => {
    rx = await Receiver.start();
    h = await startHarness();
    seen = await h.observe(CHANGES);
  });
  after(async () => {
    await seen?.close();
    await h?.close();
    await rx?.close();
  });

  const changesOf = async (merchantId: string) => {
    // The relay publishes after the request's commit: wait until nothing of the merchant's is left
    // unpublished, then until the broker has handed over everything published before the sentinel.
    await waitFor(
      async () =>
        (await h.db('outbox').whereNull('published_at').select('envelope')).every(
          (r: { envelope: { merchantId: string } }) => r.envelope.merchantId !== merchantId,
        ),
      10_000,
      'the outbox relay',
    );
    await seen.drain();
    return seen.messages.filter((m) => m.merchantId === merchantId);
  };
  const outboxOf = async (merchantId: string) =>
    (await h.db('outbox').select('envelope')).filter(
      (r: { envelope: { merchantId: string } }) => r.envelope.merchantId === merchantId,
    );

  it('announces creation, a new secret and deletion with who acted, and never the secret', async () => {
    const merchantId = randomUUID();
    const apiKeyId = randomUUID();
    const userId = randomUUID();
    const url = rx.url('/audited');
    const created = await h.call('POST', `${API}/create`, {
      merchantId,
      apiKeyId,
      body: { url, events: ['payment.completed'] },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const endpointId = created.body.data.id as string;
    const regenerated = await h.call('POST', `${DASHBOARD}/${endpointId}/regenerate-secret`, {
      merchantId,
      caller: 'user',
      userId,
    });
    expect(regenerated.status, JSON.stringify(regenerated.body)).to.equal(200);
    const deleted = await h.call('DELETE', `${DASHBOARD}/${endpointId}`, {
      merchantId,
      caller: 'user',
      userId,
    });
    expect(deleted.status).to.equal(200);

    const events = await changesOf(merchantId);
    expect(events.map((e) => e.type)).to.deep.equal([
      'webhook_endpoint.created',
      'webhook_endpoint.secret_regenerated',
      'webhook_endpoint.deleted',
    ]);
    for (const e of events) {
      expect(parseEvent(e).ok, JSON.stringify(e)).to.equal(true);
      expect(e).to.include({ producer: 'notifier', merchantId, version: 1 });
      expect(e.data).to.include({ merchantId, endpointId, url });
    }
    expect(events[0]!.data).to.include({ callerKind: 'api_key', apiKeyId, userId: null });
    expect(events[1]!.data).to.include({ callerKind: 'user', userId, apiKeyId: null });
    expect(events[2]!.data).to.include({ callerKind: 'user', userId, apiKeyId: null });
    const published = JSON.stringify(events);
    expect(published).not.to.include(created.body.data.secret);
    expect(published).not.to.include(regenerated.body.data.secret);
  });

  it('announces nothing for a change that did not happen or an answer replayed', async () => {
    const merchantId = randomUUID();
    const other = randomUUID();
    const body = { url: rx.url('/once'), events: ['refund.failed'] };
    const headers = { 'idempotency-key': `create-${randomUUID()}` };
    const first = await h.call('POST', `${API}/create`, { merchantId, body, headers });
    const again = await h.call('POST', `${API}/create`, { merchantId, body, headers });
    expect([first.status, again.status]).to.deep.equal([201, 201]);
    expect(again.body.data.id).to.equal(first.body.data.id);
    const endpointId = first.body.data.id as string;

    // Another merchant's endpoint is not found, and nothing is recorded for either merchant.
    expect((await h.call('DELETE', `${API}/${endpointId}`, { merchantId: other })).status).to.equal(404);
    const foreignSecret = await h.call('POST', `${API}/${endpointId}/regenerate-secret`, {
      merchantId: other,
    });
    expect(foreignSecret.status).to.equal(404);
    // A URL refused by the rules makes no endpoint and no event.
    const refused = await h.call('POST', `${API}/create`, {
      merchantId,
      body: { url: 'https://no-such-host.invalid/x', events: ['refund.failed'] },
    });
    expect(refused.status).to.equal(400);

    expect((await changesOf(merchantId)).map((e) => e.type)).to.deep.equal(['webhook_endpoint.created']);
    expect(await changesOf(other)).to.deep.equal([]);
    expect(await outboxOf(merchantId)).to.have.length(1);
    expect(await outboxOf(other)).to.have.length(0);
  });

  it('refuses a change whose token names no user or API key, and changes nothing', async () => {
    const merchantId = randomUUID();
    const { id } = await h.endpoint(merchantId, rx.url('/kept'));
    // A token signed without the actor's id, as no gateway sends it.
    const res = await fetch(`${h.url}${API}/${id}`, {
      method: 'DELETE',
      headers: {
        'x-internal-token': signInternalToken(TEST_INTERNAL_SECRET, {
          caller: 'api_key',
          merchantId,
          scopes: ['webhooks:write'],
        }),
      },
    });
    expect(res.status).to.equal(401);
    expect(((await res.json()) as { success: boolean }).success).to.equal(false);
    expect((await h.call('GET', `${API}/${id}`, { merchantId })).status).to.equal(200);
    expect((await changesOf(merchantId)).map((e) => e.type)).to.deep.equal(['webhook_endpoint.created']);
  });

  it('never delivers its own changes to the merchant as webhooks', async () => {
    const merchantId = randomUUID();
    const { id } = await h.endpoint(merchantId, rx.url('/all'));
    await h.call('POST', `${API}/${id}/regenerate-secret`, { merchantId });
    expect(await changesOf(merchantId)).to.have.length(2);
    expect(await h.db('webhook_events').where({ merchant_id: merchantId })).to.deep.equal([]);
    expect(rx.at('/all')).to.deep.equal([]);
  });
});
