import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { generateWebhookSecret } from '../../src/webhooks/secrets.js';
import {
  endpointKeys,
  signStandardWebhook,
  signWebhook,
  standardWebhookKey,
  standardWebhookSecret,
  webhookHeaders,
} from '../../src/webhooks/signature.js';

/** A secret as the notifier made them before: `whsec_` + unpadded base64url of 32 random bytes. */
const olderSecret = (): { secret: string; bytes: Buffer } => {
  for (;;) {
    const bytes = randomBytes(32);
    const secret = `whsec_${bytes.toString('base64url')}`;
    // Only one with a URL-only character shows the library refusing it.
    if (/[-_]/.test(secret.slice(6))) return { secret, bytes };
  }
};

const headersFor = (secret: string, eventId: string, body: string, ts = Math.floor(Date.now() / 1000)) =>
  webhookHeaders({ secret, body, event: 'payment.completed', eventId, isTest: false, timestampSeconds: ts });

describe('Standard Webhooks signatures', () => {
  const body =
    '{"event":"payment.completed","timestamp":"2025-03-01T12:00:00.000Z","data":{"amount":"1.000000"}}';

  it('matches the published test vector', () => {
    const key = standardWebhookKey('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(
      signStandardWebhook(key, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
    ).to.equal('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('sends webhook-id (the event id), webhook-timestamp and a signature the standardwebhooks library accepts', () => {
    const secret = generateWebhookSecret();
    const eventId = randomUUID();
    const h = headersFor(secret, eventId, body);
    expect(h['webhook-id']).to.equal(eventId);
    expect(h['webhook-timestamp']).to.equal(h['X-Service-Timestamp']);
    expect(h['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, h)).to.deep.equal(JSON.parse(body));
    // The spec's signature is unchanged beside it: keyed with the whole secret as UTF-8.
    expect(h['X-Service-Signature']).to.equal(signWebhook(secret, Number(h['webhook-timestamp']), body));
  });

  it('is refused by the library for another secret, a changed body and a stale timestamp', () => {
    const secret = generateWebhookSecret();
    const h = headersFor(secret, randomUUID(), body);
    expect(() => new Webhook(generateWebhookSecret()).verify(body, h)).to.throw(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(`${body} `, h)).to.throw(WebhookVerificationError);
    const stale = headersFor(secret, randomUUID(), body, Math.floor(Date.now() / 1000) - 600);
    expect(() => new Webhook(secret).verify(body, stale)).to.throw(WebhookVerificationError, /too old/);
  });

  it('keys an older base64url secret with the bytes it encodes, verified under its standard spelling', () => {
    const { secret, bytes } = olderSecret();
    expect(() => new Webhook(secret)).to.throw(); // what the library cannot decode
    expect(standardWebhookKey(secret).equals(bytes)).to.equal(true);
    const respelled = standardWebhookSecret(secret);
    expect(respelled).to.equal(`whsec_${bytes.toString('base64')}`);
    // Node's lenient base64 decoding of the secret as shown gives the same key.
    expect(Buffer.from(secret.slice(6), 'base64').equals(bytes)).to.equal(true);
    const h = headersFor(secret, randomUUID(), body);
    expect(new Webhook(respelled).verify(body, h)).to.deep.equal(JSON.parse(body));
    expect(h['X-Service-Signature']).to.equal(signWebhook(secret, Number(h['webhook-timestamp']), body));
  });

  it('keys a secret that is no base64 at all with the UTF-8 bytes of its part after whsec_', () => {
    const secret = 'whsec_not base64: ü!';
    expect(standardWebhookKey(secret).equals(Buffer.from('not base64: ü!', 'utf8'))).to.equal(true);
    const h = headersFor(secret, 'evt_1', body);
    expect(new Webhook(standardWebhookSecret(secret)).verify(body, h)).to.deep.equal(JSON.parse(body));
  });

  it('leaves every secret made now spelled as it is shown', () => {
    for (let i = 0; i < 50; i++) {
      const secret = generateWebhookSecret();
      expect(standardWebhookSecret(secret)).to.equal(secret);
    }
  });

  it('prepares both keys once from the secret', () => {
    const secret = generateWebhookSecret();
    const keys = endpointKeys(secret);
    const want = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
      .update(`e.1.${body}`)
      .digest('base64');
    expect(signStandardWebhook(keys.standard, 'e', 1, body)).to.equal(`v1,${want}`);
    expect(signWebhook(keys.spec, 1, body)).to.equal(signWebhook(secret, 1, body));
  });
});
