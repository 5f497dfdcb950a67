import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { AmqpBus, createDatabase, createMetrics, startDefinedService } from '@stablepay/platform';
import { TEST_INTERNAL_SECRET, quietLogger } from '@stablepay/platform/testing';
import { notifierService } from '../../src/index.js';
import { repairSecretSpellings } from '../../src/webhooks/secret-spellings.js';
import { openSecret, sealSecret } from '../../src/webhooks/secrets.js';
import { KEK, harnessEnv, loopbackResolver, startHarness, type Harness } from '../support/harness.js';
import { Receiver, signatureMatches } from '../support/receiver.js';

const API = '/merchant-webhooks/api';
const KEY = Buffer.from(KEK, 'hex');

describe('webhook secrets sealed under a non-canonical spelling of the endpoint id', function () {
  this.timeout(30_000);
  let h: Harness;
  let rx: Receiver;

  before(async () => {
    rx = await Receiver.start();
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
    await rx?.close();
  });

  /** An endpoint whose secret was regenerated the broken way: sealed with its id in capitals. */
  const brokenEndpoint = async (merchantId: string, path: string) => {
    const { id } = await h.endpoint(merchantId, rx.url(path), ['payment.completed']);
    const secret = `whsec_${randomUUID().replace(/-/g, '')}${randomUUID().replace(/-/g, '').slice(0, 11)}`;
    const sealed = sealSecret(secret, KEY, id.toUpperCase());
    await h.db('webhook_endpoints').where({ id }).update({ secret_sealed: sealed });
    return { id, secret, sealed };
  };

  it('are re-sealed under the canonical id, to the same secret, when the notifier starts', async () => {
    const merchantId = randomUUID();
    const broken = await brokenEndpoint(merchantId, '/broken');
    const { id: healthyId } = await h.endpoint(merchantId, rx.url('/healthy'), ['payment.completed']);
    const healthy = await h.db('webhook_endpoints').where({ id: healthyId }).first('secret_sealed');
    const before = await h.call('POST', `${API}/${broken.id}/test`, { merchantId });
    expect(before.status, 'the broken row fails as reported').to.equal(500);

    // A second notifier on the same database: the repair runs as it starts.
    const config = notifierService.loadConfig({
      INTERNAL_TOKEN_SECRET: TEST_INTERNAL_SECRET,
      DATABASE_URL: h.databaseUrl,
      AMQP_URL: h.amqpUrl,
      AMQP_PREFIX: h.prefix,
      ...(await harnessEnv()),
    });
    const logger = quietLogger('notifier');
    const db = await createDatabase({ url: h.databaseUrl, schema: config.DATABASE_SCHEMA, poolMax: 2 });
    const bus = new AmqpBus({ url: h.amqpUrl, prefix: h.prefix, logger });
    await bus.connect();
    const replica = await startDefinedService(notifierService, {
      config,
      deps: { db, bus, logger, metrics: createMetrics('notifier', false) },
      port: 0,
      host: '127.0.0.1',
      options: { resolve: loopbackResolver },
    });
    await replica.stop();

    const row = await h.db('webhook_endpoints').where({ id: broken.id }).first('secret_sealed');
    expect(row.secret_sealed).to.not.equal(broken.sealed);
    expect(openSecret(row.secret_sealed, KEY, broken.id)).to.equal(broken.secret);
    // A secret that already opened is left as it was.
    expect(
      (await h.db('webhook_endpoints').where({ id: healthyId }).first('secret_sealed')).secret_sealed,
    ).to.equal(healthy.secret_sealed);

    const after = await h.call('POST', `${API}/${broken.id}/test`, { merchantId });
    expect(after.status, JSON.stringify(after.body)).to.equal(200);
    expect(after.body.data.success).to.equal(true);
    expect(signatureMatches(broken.secret, rx.at('/broken')[0]!)).to.equal(true);
  });

  it('are repaired once: a second run rewrites nothing', async () => {
    const merchantId = randomUUID();
    const broken = await brokenEndpoint(merchantId, '/raced');
    const first = await repairSecretSpellings(h.db, { current: KEY });
    expect(first.repaired).to.include(broken.id);
    const second = await repairSecretSpellings(h.db, { current: KEY });
    expect(second.repaired).to.deep.equal([]);
    expect(second.scanned).to.be.greaterThan(0);
  });
});
