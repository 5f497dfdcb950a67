import { expect } from 'chai';
import { waitFor } from '../support.js';
import { startStackHarness, type Merchant, type StackHarness } from './harness.js';

interface Entry {
  action: string;
  actor: string;
  details: Record<string, unknown>;
}

const ENDPOINT_ACTIONS = [
  'webhook_endpoint.created',
  'webhook_endpoint.secret_regenerated',
  'webhook_endpoint.deleted',
];

describe("webhook endpoint changes in the merchant's audit log, through the gateway", function () {
  this.timeout(180_000);
  let h: StackHarness;
  let shop: Merchant;
  let other: Merchant;

  before(async () => {
    h = await startStackHarness();
    shop = await h.register('audited@shop.example');
    other = await h.register('other@shop.example');
  });
  after(async () => {
    await h?.close();
  });

  const endpointEntries = async (m: Merchant): Promise<Entry[]> => {
    const log = await h.gw.call('GET', '/audit-log?limit=100', { headers: m.bearer });
    expect(log.status, JSON.stringify(log.body)).to.equal(200);
    return (log.body.data.entries as Entry[]).filter((e) => ENDPOINT_ACTIONS.includes(e.action));
  };

  it('records creation, a new secret and deletion with who acted, for the merchant only', async () => {
    const url = 'http://127.0.0.1:9/audited';
    const created = await h.gw.call('POST', '/merchant-webhooks/api/create', {
      headers: shop.key,
      body: { url, events: ['payment.completed'] },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const endpointId = created.body.data.id as string;
    const regenerated = await h.gw.call('POST', `/merchant-webhooks/${endpointId}/regenerate-secret`, {
      headers: shop.bearer,
    });
    expect(regenerated.status, JSON.stringify(regenerated.body)).to.equal(200);
    const deleted = await h.gw.call('DELETE', `/merchant-webhooks/api/${endpointId}`, { headers: shop.key });
    expect(deleted.status).to.equal(200);

    const entries = await waitFor(async () => {
      const found = await endpointEntries(shop);
      return found.length >= 3 ? found : undefined;
    }, 'webhook endpoint audit entries');
    // Newest first.
    expect(entries.map((e) => [e.action, e.actor])).to.deep.equal([
      ['webhook_endpoint.deleted', 'api_key'],
      ['webhook_endpoint.secret_regenerated', 'user'],
      ['webhook_endpoint.created', 'api_key'],
    ]);
    for (const e of entries) expect(e.details).to.include({ endpointId, url });
    const last4 = (shop.key['x-api-key'] as string).slice(-4);
    expect(entries[0]!.details).to.include({ apiKeyName: 'server', apiKeyLast4: last4 });
    expect(entries[2]!.details).to.include({ apiKeyName: 'server', apiKeyLast4: last4 });
    expect(entries[1]!.details).to.not.have.property('apiKeyName');
    const text = JSON.stringify(entries);
    expect(text).to.not.include(created.body.data.secret);
    expect(text).to.not.include(regenerated.body.data.secret);

    const onlyCreated = await h.gw.call('GET', '/audit-log?action=webhook_endpoint.created', {
      headers: shop.bearer,
    });
    expect(onlyCreated.body.data.entries.map((e: Entry) => e.action)).to.deep.equal([
      'webhook_endpoint.created',
    ]);
    expect(await endpointEntries(other)).to.deep.equal([]);
    // Internal events: not offered for subscription, and not among the merchant's events.
    for (const path of ['/merchant-webhooks/api/events', '/events/api/list']) {
      const listed = await h.gw.call('GET', path, { headers: shop.key });
      expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
      expect(JSON.stringify(listed.body.data), path).to.not.include('webhook_endpoint');
    }
  });
});
