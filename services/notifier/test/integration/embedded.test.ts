import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { expect } from 'chai';
import type { Knex } from 'knex';
import {
  EmbeddedPostgres,
  INTERNAL_TOKEN_HEADER,
  InProcessBus,
  buildEvent,
  createDatabase,
  createMetrics,
  signInternalToken,
  type RunningService,
} from '@stablepay/platform';
import { quietLogger } from '@stablepay/platform/testing';
import { loadNotifierConfig, startNotifierService, type NotifierConfig } from '../../src/index.js';
import { merchantData, paymentData } from '../support/fixtures.js';
import { INTERNAL_SECRET, harnessEnv, loopbackResolver } from '../support/harness.js';
import { Receiver, signatureMatches } from '../support/receiver.js';
import { waitFor } from '../support/wait.js';

describe('embedded run (PGlite, in-process bus, .eml files)', function () {
  this.timeout(60_000);
  let embedded: EmbeddedPostgres;
  let db: Knex;
  let bus: InProcessBus;
  let service: RunningService;
  let config: NotifierConfig;
  let rx: Receiver;

  before(async () => {
    rx = await Receiver.start();
    embedded = await EmbeddedPostgres.open();
    config = loadNotifierConfig(await harnessEnv());
    db = await createDatabase({ embedded, schema: config.DATABASE_SCHEMA });
    bus = new InProcessBus();
    service = await startNotifierService({
      config,
      deps: { db, bus, logger: quietLogger('notifier'), metrics: createMetrics('notifier', false) },
      port: 0,
      host: '127.0.0.1',
      resolve: loopbackResolver,
    });
  });
  after(async () => {
    await service?.stop();
    await embedded?.close();
    await rx?.close();
  });

  const publish = async (type: string, merchantId: string, data: Record<string, unknown>) => {
    const event = buildEvent({
      type: type as 'merchant.created',
      producer: 'test',
      merchantId,
      data: data as never,
    });
    await bus.publish({ id: event.id, type: event.type, body: event as unknown as Record<string, unknown> });
    return event.id;
  };

  it('delivers a signed webhook and writes the e-mails as files', async () => {
    const merchantId = randomUUID();
    await publish('merchant.created', merchantId, merchantData(merchantId, 'embedded@acme.example.test'));
    const res = await fetch(`${service.url}/merchant-webhooks/api/create`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [INTERNAL_TOKEN_HEADER]: signInternalToken(INTERNAL_SECRET, { caller: 'api_key', merchantId }),
      },
      body: JSON.stringify({
        url: rx.url('/embedded', 'hooks.merchant.test'),
        events: ['payment.completed'],
      }),
    });
    expect(res.status).to.equal(201);
    const { secret } = ((await res.json()) as { data: { secret: string } }).data;
    const eventId = await publish('payment.completed', merchantId, paymentData(merchantId));
    const [req] = await rx.waitForRequests('/embedded', 1, 20_000);
    expect(req!.eventId).to.equal(eventId);
    expect(signatureMatches(secret, req!)).to.equal(true);
    await waitFor(() => readdirSync(config.MAIL_DIR).filter((f) => f.endsWith('.eml')).length === 2, 20_000);
    await waitFor(
      async () =>
        (await db('webhook_deliveries').where({ event_id: eventId }).first())?.status === 'succeeded',
    );
  });
});
