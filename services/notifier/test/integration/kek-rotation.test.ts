import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  AmqpBus,
  createDatabase,
  createMetrics,
  startDefinedService,
  type Metrics,
  type RunningDefinedService,
} from '@stablepay/platform';
import { TEST_INTERNAL_SECRET, metricValue, quietLogger, waitFor } from '@stablepay/platform/testing';
import { notifierService, type NotifierContext } from '../../src/index.js';
import { SecretUnavailableError, openSecret } from '../../src/webhooks/secrets.js';
import { resealSecrets } from '../../src/webhooks/reseal-secrets.js';
import { paymentData } from '../support/fixtures.js';
import { KEK, harnessEnv, loopbackResolver, startHarness, type Harness } from '../support/harness.js';
import { Receiver, signatureMatches } from '../support/receiver.js';

const OLD = Buffer.from(KEK, 'hex');

interface Replica {
  service: RunningDefinedService<NotifierContext>;
  metrics: Metrics;
  stop(): Promise<void>;
}

describe('rotating WEBHOOK_SECRET_KEK (PostgreSQL + RabbitMQ)', function () {
  this.timeout(40_000);
  /** The API role with the old key alone: a replica the rollout has not replaced yet. */
  let h: Harness;
  let rx: Receiver;
  const replicas: Replica[] = [];

  /** Another notifier (all roles) on the harness's database and queues, with its own keys. */
  const startReplica = async (keys: Record<string, string>): Promise<Replica> => {
    const config = notifierService.loadConfig({
      INTERNAL_TOKEN_SECRET: TEST_INTERNAL_SECRET,
      DATABASE_URL: h.databaseUrl,
      AMQP_URL: h.amqpUrl,
      AMQP_PREFIX: h.prefix,
      ...(await harnessEnv({ WEBHOOK_SECRET_RESEAL_INTERVAL_MS: '100', WEBHOOK_SECRET_RESEAL_BATCH: '3' })),
      ...keys,
    });
    const logger = quietLogger('notifier');
    const db = await createDatabase({ url: h.databaseUrl, schema: config.DATABASE_SCHEMA, poolMax: 5 });
    const bus = new AmqpBus({ url: h.amqpUrl, prefix: h.prefix, logger });
    await bus.connect();
    const metrics = createMetrics('notifier', false);
    try {
      const service = await startDefinedService(notifierService, {
        config,
        deps: { db, bus, logger, metrics },
        port: 0,
        host: '127.0.0.1',
        options: { resolve: loopbackResolver },
      });
      const replica = { service, metrics, stop: () => service.stop() };
      replicas.push(replica);
      return replica;
    } catch (err) {
      await bus.close().catch(() => undefined);
      await db.destroy().catch(() => undefined);
      throw err;
    }
  };
  const metric = async (r: Replica, name: string, labels: Record<string, string> = {}) =>
    metricValue(await r.metrics.registry.metrics(), name, labels);
  const rows = async () =>
    (await h.db('webhook_endpoints').select('id', 'secret_sealed')) as Array<{
      id: string;
      secret_sealed: string;
    }>;
  const opensWith = (row: { id: string; secret_sealed: string }, kek: Buffer) => {
    try {
      return openSecret(row.secret_sealed, kek, row.id);
    } catch (err) {
      if (err instanceof SecretUnavailableError) return undefined;
      throw err;
    }
  };

  before(async () => {
    rx = await Receiver.start();
    h = await startHarness({ role: 'api' });
  });
  after(async () => {
    for (const r of replicas.splice(0)) await r.stop().catch(() => undefined);
    await h?.close();
    await rx?.close();
  });

  it('re-seals every secret once when several scans run at the same time, to the same plaintext', async () => {
    const merchantId = randomUUID();
    const created: Array<{ id: string; secret: string }> = [];
    for (let i = 0; i < 7; i += 1) created.push(await h.endpoint(merchantId, rx.url(`/race-${i}`)));
    const next = randomBytes(32);
    const keks = { current: next, previous: OLD };
    const scans = await Promise.all([1, 2, 3].map(() => resealSecrets(h.db, keks, 2)));
    expect(scans.reduce((n, s) => n + s.resealed, 0)).to.equal(7);
    for (const s of scans)
      expect(s).to.include({ scanned: 7, complete: true }).and.have.property('unopenable').that.is.empty;
    for (const row of await rows()) {
      expect(opensWith(row, OLD), 'no longer under the old key').to.equal(undefined);
      expect(opensWith(row, next)).to.equal(created.find((c) => c.id === row.id)!.secret);
    }
    // Moved back for the next test: the old key is the harness's again.
    const back = await resealSecrets(h.db, { current: OLD, previous: next }, 100);
    expect(back.resealed).to.equal(7);
    await h.db('webhook_endpoints').delete();
  });

  it('keeps signing with the same secrets through a rotation, re-seals them all, then runs on the new key alone', async () => {
    const merchantId = randomUUID();
    const endpoints: Array<{ id: string; secret: string }> = [];
    for (let i = 0; i < 5; i += 1)
      endpoints.push(await h.endpoint(merchantId, rx.url(`/e${i}`), ['payment.completed']));
    for (let i = 0; i < 5; i += 1) rx.on(`/e${i}`, () => ({ status: 200 }));
    const next = randomBytes(32);

    // A key that opens none of the stored secrets is refused at start, with or without a previous key.
    for (const keys of [
      { WEBHOOK_SECRET_KEK: next.toString('hex') } as Record<string, string>,
      {
        WEBHOOK_SECRET_KEK: next.toString('hex'),
        WEBHOOK_SECRET_KEK_PREVIOUS: randomBytes(32).toString('hex'),
      },
    ]) {
      let refused: Error | undefined;
      await startReplica(keys).catch((err: Error) => (refused = err));
      expect(refused?.name).to.equal('SecretUnavailableError');
    }

    // The rollout: a replica with the new key and the old one as previous.
    const rotating = await startReplica({
      WEBHOOK_SECRET_KEK: next.toString('base64'),
      WEBHOOK_SECRET_KEK_PREVIOUS: KEK,
    });
    const event = await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(() => rx.byEvent(event.id).length === 5, 10_000, 'deliveries during the rotation');
    for (const [i, e] of endpoints.entries()) {
      const req = rx.byEvent(event.id).find((r) => r.path === `/e${i}`)!;
      expect(signatureMatches(e.secret, req), `signed with ${e.id}'s secret`).to.equal(true);
    }
    await waitFor(
      async () => (await rows()).every((row) => opensWith(row, next) !== undefined),
      10_000,
      're-seal',
    );
    for (const row of await rows()) {
      expect(opensWith(row, OLD)).to.equal(undefined);
      expect(opensWith(row, next)).to.equal(endpoints.find((e) => e.id === row.id)!.secret);
    }
    expect(await metric(rotating, 'webhook_secrets_resealed_total')).to.equal(5);

    // A replica not yet replaced still seals new secrets under the old key: the next scan moves them.
    const late = await h.endpoint(merchantId, rx.url('/late'), ['payment.completed']);
    rx.on('/late', () => ({ status: 200 }));
    await waitFor(
      async () => (await metric(rotating, 'webhook_secrets_resealed_total')) === 6,
      10_000,
      'late',
    );
    await waitFor(
      async () =>
        (await metric(rotating, 'webhook_secrets_not_under_kek', { sealed_under: 'previous' })) === 0,
      10_000,
      'a scan finding nothing left',
    );
    expect(await metric(rotating, 'webhook_secrets_not_under_kek', { sealed_under: 'neither' })).to.equal(0);
    expect(await rotating.metrics.registry.metrics()).to.include(
      'webhook_secrets_not_under_kek{sealed_under="neither"',
    );
    await rotating.stop();

    // The previous key dropped: the new key alone opens everything, and signs as before.
    const after = await startReplica({ WEBHOOK_SECRET_KEK: next.toString('hex') });
    const second = await h.publish('payment.completed', paymentData(merchantId));
    await waitFor(() => rx.byEvent(second.id).length === 6, 10_000, 'deliveries after the rotation');
    for (const req of rx.byEvent(second.id)) {
      const e = req.path === '/late' ? late : endpoints[Number(req.path.slice(2))]!;
      expect(signatureMatches(e.secret, req)).to.equal(true);
    }
    expect(await metric(after, 'webhook_secrets_resealed_total')).to.equal(0);
  });
});
