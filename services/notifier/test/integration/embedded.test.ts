import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { DeleteWebhookResponse } from '@stablepay/contracts';
import {
  EmbeddedPostgres,
  InProcessBus,
  createDatabase,
  createMetrics,
  startDefinedService,
  type RunningDefinedService,
} from '@stablepay/platform';
import {
  TEST_INTERNAL_SECRET,
  callService,
  publishEvent,
  quietLogger,
  waitFor,
} from '@stablepay/platform/testing';
import { notifierService, type NotifierConfig, type NotifierContext } from '../../src/index.js';
import { merchantData, paymentData } from '../support/fixtures.js';
import { harnessEnv, loopbackResolver } from '../support/harness.js';
import { Receiver, signatureMatches } from '../support/receiver.js';

const API = '/merchant-webhooks/api';

describe('embedded run (PGlite, in-process bus, .eml files)', function () {
  this.timeout(60_000);
  let embedded: EmbeddedPostgres;
  let db: Knex;
  let bus: InProcessBus;
  let service: RunningDefinedService<NotifierContext>;
  let config: NotifierConfig;
  let rx: Receiver;

  before(async () => {
    rx = await Receiver.start();
    embedded = await EmbeddedPostgres.open();
    config = notifierService.loadConfig(await harnessEnv({ INTERNAL_TOKEN_SECRET: TEST_INTERNAL_SECRET }));
    db = await createDatabase({ embedded, schema: config.DATABASE_SCHEMA });
    bus = new InProcessBus();
    service = await startDefinedService(notifierService, {
      config,
      deps: { db, bus, logger: quietLogger('notifier'), metrics: createMetrics('notifier', false) },
      port: 0,
      host: '127.0.0.1',
      options: { resolve: loopbackResolver },
    });
  });
  after(async () => {
    await service?.stop();
    await embedded?.close();
    await rx?.close();
  });

  const call = (method: string, path: string, merchantId: string, body?: unknown) =>
    callService(service.url, method, path, { merchantId, body });

  it('delivers a signed webhook and writes the e-mails as files', async () => {
    const merchantId = randomUUID();
    await publishEvent(bus, 'merchant.created', merchantData(merchantId, 'embedded@acme.example.test'));
    const res = await call('POST', `${API}/create`, merchantId, {
      url: rx.url('/embedded', 'hooks.merchant.test'),
      events: ['payment.completed'],
    });
    expect(res.status).to.equal(201);
    const { secret } = res.body.data as { secret: string };
    const { id: eventId } = await publishEvent(bus, 'payment.completed', paymentData(merchantId));
    const [req] = await rx.waitForRequests('/embedded', 1, 20_000);
    expect(req!.eventId).to.equal(eventId);
    expect(signatureMatches(secret, req!)).to.equal(true);
    await waitFor(() => readdirSync(config.MAIL_DIR).filter((f) => f.endsWith('.eml')).length === 2, 20_000);
    await waitFor(
      async () =>
        (await db('webhook_deliveries').where({ event_id: eventId }).first())?.status === 'succeeded',
    );
  });

  // Found by a fuzzer against the embedded stack: PGlite's knex driver answered the delete with a
  // result object instead of a row count, so the endpoint was deleted and the answer was a 404.
  it('answers a delete with 200 and the message, then 404 for the endpoint that is gone', async () => {
    const merchantId = randomUUID();
    const created = await call('POST', `${API}/create`, merchantId, {
      url: rx.url('/deleted'),
      events: ['refund.failed'],
    });
    expect(created.status).to.equal(201);
    const id = created.body.data.id as string;
    const deleted = await call('DELETE', `${API}/${id}`, merchantId);
    expect(deleted.status, JSON.stringify(deleted.body)).to.equal(200);
    expect(DeleteWebhookResponse.parse(deleted.body)).to.deep.equal({
      success: true,
      message: 'Webhook endpoint deleted',
    });
    expect(await db('webhook_endpoints').where({ id })).to.deep.equal([]);
    expect((await call('GET', `${API}/${id}`, merchantId)).status).to.equal(404);
    expect((await call('DELETE', `${API}/${id}`, merchantId)).status).to.equal(404);
  });
});
