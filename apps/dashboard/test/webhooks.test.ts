import { expect } from 'chai';
import type { Page } from 'playwright-core';
import {
  PHONE,
  registerMerchant,
  seriousViolations,
  signIn,
  startDashboardStack,
  waitFor,
  type DashboardStack,
  type Tab,
} from './support/dashboard-stack.js';
import { WebhookReceiver, signedWith } from './support/receiver.js';

/**
 * Webhook endpoints in the dashboard against the whole stack on the devnet: an endpoint added from
 * the dashboard is disabled by ten real payments its receiver refuses, and is re-enabled from the
 * dashboard after a test event; its delivery log shows what was sent and answered, a delivery is
 * sent again and the events since a moment are replayed; the endpoint is edited, its secret
 * replaced and it is deleted.
 */
describe('dashboard: webhook endpoints (Chromium, devnet)', function () {
  this.timeout(120_000);
  let s: DashboardStack;
  let rx: WebhookReceiver;
  let merchant: Awaited<ReturnType<typeof registerMerchant>>;
  const email = `webhooks-${Date.now()}@example.com`;
  const tabs: Tab[] = [];

  before(async () => {
    rx = await WebhookReceiver.start();
    // One attempt per event, so that ten refused events are ten failures in a row.
    s = await startDashboardStack({ WEBHOOK_RETRY_SCHEDULE: '0' });
    merchant = await registerMerchant(s.gw, email);
  });
  after(async () => {
    await s?.close();
    await rx?.close();
  });
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await s.closeTab(tab);
  });

  const open = async (opts?: Parameters<DashboardStack['open']>[0]) => {
    const tab = await s.open(opts);
    tabs.push(tab);
    return tab;
  };
  const toDevelopers = (page: Page, name = 'Developers') =>
    page
      .getByRole('navigation', { name: /Main|Haupt/ })
      .getByRole('link', { name })
      .click();
  const endpointApi = async (id: string) =>
    (await s.gw.call('GET', `/merchant-webhooks/${id}`, { headers: merchant.bearer })).body.data;

  it('re-enables an endpoint disabled after ten failed deliveries, and redelivers and replays', async () => {
    rx.answer('/orders', 500);
    const { page } = await open();
    await signIn(page, email);
    await toDevelopers(page);
    await page.getByLabel('Endpoint URL').fill(rx.url('/orders'));
    await page.getByLabel('Description (optional)').fill('Order system');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.locator('[data-new-secret]');
    await shown.waitFor();
    const secret = (await shown.innerText()).trim();
    expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.content()).not.to.contain(secret);
    const row = page.locator('[data-endpoint-id]');
    const id = (await row.getAttribute('data-endpoint-id'))!;
    expect(await row.innerText())
      .to.contain('Active')
      .and.contain('Order system');
    // Every event is subscribed unless unticked; the event types card says what each means.
    expect((await endpointApi(id)).events).to.have.length(10);
    await page
      .getByRole('region', { name: 'Event types', exact: true })
      .getByText('A refund was sent on-chain and confirmed.')
      .waitFor();
    await s.shot(page, 'webhooks-list-desktop');

    // The twin takes a bearer token only; the API-key route takes no bearer token.
    expect(
      (await s.gw.call('GET', '/merchant-webhooks', { headers: { 'x-api-key': merchant.key } })).status,
    ).to.be.oneOf([401, 403]);
    expect(
      (await s.gw.call('GET', '/merchant-webhooks/api/list', { headers: merchant.bearer })).status,
    ).to.be.oneOf([401, 403]);

    await row.getByRole('link').click();
    await page.getByRole('heading', { name: /Webhook endpoint/ }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('The test failed: HTTP 500').waitFor();
    const test = rx.at('/orders')[0]!;
    expect(test.headers['x-service-test']).to.equal('true');
    expect(signedWith(test, secret)).to.equal(true);

    // Ten real payments, each refused by the receiver: the endpoint is disabled at the tenth.
    const paid: string[] = [];
    for (let i = 0; i < 10; i++)
      paid.push(
        (await s.pay({ merchantId: merchant.merchantId, to: merchant.wallet.address, amount: `${i + 1}` }))
          .paymentId,
      );
    await waitFor(async () => (await endpointApi(id)).is_active === false, 90_000, 'endpoint disabled', 250);
    expect(await endpointApi(id)).to.include({ failure_count: 10 });

    await toDevelopers(page);
    await page.locator(`[data-endpoint-id="${id}"]`).getByText('Disabled').waitFor();
    await page.locator(`[data-endpoint-id="${id}"] a`).click();
    await page.getByText('Disabled after 10 failed deliveries in a row').waitFor();
    // The log: the refused payments and the test, newest first, each with its payload and answer.
    const failed = page.locator('[data-delivery-status="failed"]');
    await waitFor(async () => (await failed.count()) === 11, 'eleven failed deliveries');
    const newest = failed.first();
    await newest.locator('summary').click();
    expect(await newest.locator('summary').innerText())
      .to.contain('payment.completed')
      .and.contain('HTTP 500');
    const payload = JSON.parse(await newest.locator('[data-payload]').innerText());
    expect(payload).to.include({ event: 'payment.completed' });
    expect(paid).to.include(payload.data.payment_id);
    expect(await newest.innerText()).to.contain('down');
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'webhook-disabled-desktop');

    // Fixed: a test event goes through, then the endpoint is enabled again.
    rx.answer('/orders', 200);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText(/Your endpoint answered HTTP 200 in \d+ ms/).waitFor();
    await page.getByRole('button', { name: 'Enable endpoint' }).click();
    await page.getByText('The endpoint is enabled again; new events are delivered.').waitFor();
    await page.getByText('Active: events are delivered to this endpoint.').waitFor();
    expect(await endpointApi(id)).to.include({ is_active: true, failure_count: 0 });

    // The refused delivery of the tenth payment is sent again, with its event id.
    const eventId = await newest.locator('dd code').first().innerText();
    const before = rx.at('/orders').length;
    await page
      .locator('[data-delivery-status="failed"]')
      .first()
      .getByRole('button', { name: 'Send again' })
      .click();
    await waitFor(() => rx.at('/orders').length > before, 'redelivered');
    const again = rx.at('/orders').at(-1)!;
    expect(again.headers['x-service-event-id']).to.equal(eventId);
    expect(signedWith(again, secret)).to.equal(true);
    await page
      .locator('[data-delivery-status="succeeded"]')
      .filter({ hasText: 'payment.completed' })
      .filter({ hasText: 'Sent again' })
      .first()
      .waitFor();

    // Replay: every event of the last day that the endpoint has not received, the nine payments
    // whose delivery failed and was not sent again.
    const missed = paid.filter((p) => p !== again.json.data.payment_id);
    const beforeReplay = rx.at('/orders').length;
    await page.getByRole('button', { name: 'Replay' }).click();
    await page.getByText('9 events queued for delivery.').waitFor();
    await waitFor(() => rx.at('/orders').length >= beforeReplay + 9, 'replayed');
    const replayed = new Set(
      rx
        .at('/orders')
        .slice(beforeReplay)
        .map((r) => r.json?.data?.payment_id),
    );
    expect([...replayed].sort()).to.deep.equal(missed.sort());
    await s.shot(page, 'webhook-enabled-desktop');

    // The merchant's events: the ten payments (the tests are no events of the business), each
    // with the data sent and where it went: refused at first, then delivered again.
    await toDevelopers(page);
    const events = page.getByRole('region', { name: 'Events', exact: true });
    await events.locator('[data-event-total="10"]').waitFor();
    const latest = events.locator('[data-event-id]').first();
    await latest.locator('summary').click();
    expect(await latest.locator('summary').innerText()).to.contain('payment.completed');
    const data = JSON.parse(await latest.locator('[data-event-data]').innerText());
    expect(data.payment_id).to.equal(paid.at(-1));
    const listed = (await s.gw.call('GET', '/events?limit=1', { headers: merchant.bearer })).body.data;
    expect(listed.events[0].id).to.equal(await latest.getAttribute('data-event-id'));
    expect(listed.events[0].data).to.deep.equal(data);
    await latest.locator('[data-event-delivery="failed"]').getByText(rx.url('/orders')).waitFor();
    expect(await latest.locator('[data-event-delivery="succeeded"]').count()).to.equal(
      listed.events[0].deliveries.filter((d: { status: string }) => d.status === 'succeeded').length,
    );
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'events-desktop');
    await events.getByLabel('Type').selectOption('refund.created');
    await events.getByText('No event of this type.').waitFor();
  });

  it('edits an endpoint, replaces its secret and deletes it, on a phone and in German', async () => {
    rx.answer('/hooks', 200);
    const created = await s.gw.call('POST', '/merchant-webhooks', {
      headers: merchant.bearer,
      body: { url: rx.url('/hooks'), events: ['payment.completed', 'refund.completed'] },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const { id, secret: oldSecret } = created.body.data;

    const { page } = await open({ viewport: PHONE, locale: 'de-DE' });
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await toDevelopers(page, 'Entwickler');
    await page.getByRole('heading', { name: 'Webhook-Endpunkte' }).waitFor();
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'webhooks-list-phone-de');
    await page.locator(`[data-endpoint-id="${id}"] a`).click();
    await page.getByRole('heading', { name: 'Einstellungen' }).waitFor();

    await page.getByLabel('Beschreibung (optional)').fill('Lager');
    await page.getByLabel('refund.completed').uncheck();
    await page.getByLabel('refund.failed').check();
    await page.getByRole('button', { name: 'Änderungen speichern' }).click();
    await page.getByText('Gespeichert.').waitFor();
    expect(await endpointApi(id)).to.deep.include({
      description: 'Lager',
      events: ['payment.completed', 'refund.failed'],
    });

    await page.getByRole('button', { name: 'Geheimnis ersetzen …' }).click();
    await page
      .getByRole('group', { name: 'Ersetzen des Signaturgeheimnisses bestätigen' })
      .getByRole('button', { name: 'Geheimnis ersetzen' })
      .click();
    const secret = (await page.locator('[data-new-secret]').innerText()).trim();
    expect(secret)
      .to.match(/^whsec_/)
      .and.not.equal(oldSecret);
    await page.getByRole('button', { name: 'Testereignis senden' }).click();
    await page.getByText(/Ihr Endpunkt antwortete mit HTTP 200/).waitFor();
    const test = rx.at('/hooks').at(-1)!;
    expect(signedWith(test, secret)).to.equal(true);
    expect(signedWith(test, oldSecret)).to.equal(false);
    await page.locator('[data-delivery-status="succeeded"]').first().waitFor();
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'webhook-detail-phone-de');

    await page.getByRole('button', { name: 'Endpunkt löschen …' }).click();
    await page
      .getByRole('group', { name: 'Löschen des Endpunkts bestätigen' })
      .getByRole('button', { name: 'Endpunkt löschen' })
      .click();
    await page.getByRole('heading', { name: 'Webhook-Endpunkte' }).waitFor();
    await page.locator(`[data-endpoint-id="${id}"]`).waitFor({ state: 'detached' });
    // The merchant's events stay listed after their endpoint is gone.
    await page
      .getByRole('region', { name: 'Ereignisse', exact: true })
      .locator('[data-event-id]')
      .first()
      .waitFor();
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'events-phone-de');
    expect(
      (await s.gw.call('GET', `/merchant-webhooks/${id}`, { headers: merchant.bearer })).status,
    ).to.equal(404);

    // The audit log names the three changes, each by the dashboard (recorded from the notifier's events).
    const changes = [
      'webhook_endpoint.deleted',
      'webhook_endpoint.secret_regenerated',
      'webhook_endpoint.created',
    ];
    await waitFor(async () => {
      const log = await s.gw.call('GET', '/audit-log?limit=100', { headers: merchant.bearer });
      const actions = (log.body.data.entries as Array<{ action: string; details: { endpointId?: string } }>)
        .filter((e) => e.details.endpointId === id)
        .map((e) => e.action);
      return changes.every((c) => actions.includes(c));
    }, 'webhook endpoint changes in the audit log');
    await page
      .getByRole('navigation', { name: /Main|Haupt/ })
      .getByRole('link', { name: 'Sicherheit' })
      .click();
    // This endpoint's rows (the first test's endpoint has its own).
    const rows = page.locator('[data-audit-action^="webhook_endpoint."]', { hasText: id });
    await rows.first().waitFor();
    expect(await rows.evaluateAll((r) => r.map((e) => e.getAttribute('data-audit-action')))).to.deep.equal(
      changes,
    );
    const text = await rows.allInnerTexts();
    // In sentences naming the user who acted, from the dashboard.
    expect(text[0])
      .to.contain(`${email} hat den Webhook-Endpunkt`)
      .and.contain('gelöscht.')
      .and.contain('Dashboard');
    expect(text[1]).to.contain(`${email} hat das Signatur-Geheimnis von`).and.contain('ersetzt.');
    expect(text[2]).to.contain(`${email} hat den Webhook-Endpunkt`).and.contain('hinzugefügt.');
    expect(text.join(' ')).to.not.contain(secret);
    await page.getByLabel('Aktion').selectOption('webhook_endpoint.secret_regenerated');
    await page.locator('table[data-total="1"]').waitFor();
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'audit-log-webhooks-phone-de');
  });
});
