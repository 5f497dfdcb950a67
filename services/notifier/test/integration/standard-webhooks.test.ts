import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { waitFor } from '@stablepay/platform/testing';
import { sealSecret } from '../../src/webhooks/secrets.js';
import { standardWebhookSecret } from '../../src/webhooks/signature.js';
import { paymentData } from '../support/fixtures.js';
import { KEK, startHarness, type Harness } from '../support/harness.js';
import { Receiver, signatureMatches, type ReceivedRequest } from '../support/receiver.js';

const API = '/merchant-webhooks/api';

/** What a Standard Webhooks library makes of a received request. */
const verifyWithLibrary = (secret: string, req: ReceivedRequest) =>
  new Webhook(secret).verify(req.raw, req.headers as Record<string, string>);

describe('Standard Webhooks headers on real deliveries (PostgreSQL + RabbitMQ + HTTPS receiver)', function () {
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

  it('verify with the standardwebhooks library and the secret as shown, on every retry with the same id', async () => {
    const merchantId = await h.merchant();
    const path = '/standard';
    rx.on(path, (_req, n) => (n < 2 ? { status: 500 } : { status: 204 }));
    const { id: endpointId, secret } = await h.endpoint(merchantId, rx.url(path), ['payment.completed']);
    const { id: eventId } = await h.publish('payment.completed', paymentData(merchantId));
    const got = await rx.waitForRequests(path, 2);
    await waitFor(async () => (await h.deliveryStatus(eventId, endpointId)) === 'succeeded');

    for (const req of got) {
      expect(req.headers['webhook-id']).to.equal(eventId);
      expect(req.headers['webhook-timestamp']).to.equal(req.headers['x-service-timestamp']);
      expect(verifyWithLibrary(secret, req)).to.deep.equal(JSON.parse(req.raw));
      expect(signatureMatches(secret, req), 'the spec signature beside it').to.equal(true);
    }
    const forged = { ...got[0]!, raw: got[0]!.raw.replace('25.500000', '2550.000000') };
    expect(() => verifyWithLibrary(secret, forged)).to.throw(WebhookVerificationError);
    const other = (await h.endpoint(merchantId, rx.url('/other'), ['refund.failed'])).secret;
    expect(() => verifyWithLibrary(other, got[0]!)).to.throw(WebhookVerificationError);
  });

  it('verify, for a secret made before (unpadded base64url), under its standard spelling', async () => {
    const merchantId = await h.merchant();
    const path = '/older-secret';
    const { id: endpointId } = await h.endpoint(merchantId, rx.url(path), ['payment.completed']);
    // An older secret that a Standard Webhooks library cannot read as it is shown (some base64url
    // spellings happen to decode, to other bytes: those would not show what the respelling is for).
    const unreadable = (secret: string) => {
      try {
        new Webhook(secret);
        return false;
      } catch {
        return true;
      }
    };
    let older: string;
    do older = `whsec_${randomBytes(32).toString('base64url')}`;
    while (!unreadable(older));
    const sealed = sealSecret(older, Buffer.from(KEK, 'hex'), endpointId);
    await h.db('webhook_endpoints').where({ id: endpointId }).update({ secret_sealed: sealed });

    const test = await h.call('POST', `${API}/${endpointId}/test`, { merchantId });
    expect(test.body.data.success).to.equal(true);
    const [req] = await rx.waitForRequests(path, 1);
    expect(signatureMatches(older, req!), 'the spec signature with the secret as shown').to.equal(true);
    expect(() => verifyWithLibrary(older, req!)).to.throw(); // the library cannot decode base64url
    const respelled = standardWebhookSecret(older);
    expect(respelled).to.equal(`whsec_${Buffer.from(older.slice(6), 'base64url').toString('base64')}`);
    expect(verifyWithLibrary(respelled, req!)).to.deep.equal(JSON.parse(req!.raw));
  });
});
