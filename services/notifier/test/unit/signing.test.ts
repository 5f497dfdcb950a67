import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { expect } from 'chai';
import { WebhookHeaders } from '@stablepay/contracts';
import {
  SecretUnavailableError,
  generateWebhookSecret,
  openSecret,
  sealSecret,
} from '../../src/webhooks/secrets.js';
import { signWebhook, webhookHeaders } from '../../src/webhooks/signature.js';

/** The spec's rule written out independently: hex HMAC-SHA256(secret, `${ts}.${body}`). */
const verify = (secret: string, ts: string, body: string, header: string): boolean => {
  const expected = Buffer.from(
    `sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`,
  );
  const got = Buffer.from(header);
  return got.length === expected.length && timingSafeEqual(got, expected);
};

describe('webhook signatures', () => {
  it('signs `<timestamp>.<body>` with HMAC-SHA256 keyed by the whole secret', () => {
    const secret = generateWebhookSecret();
    const body =
      '{"event":"payment.completed","timestamp":"2025-03-01T12:00:00.000Z","data":{"amount":"1.000000"}}';
    const sig = signWebhook(secret, 1740830400, body);
    expect(sig).to.match(/^sha256=[0-9a-f]{64}$/);
    expect(verify(secret, '1740830400', body, sig)).to.equal(true);
    expect(verify(secret, '1740830401', body, sig)).to.equal(false);
    expect(verify(secret, '1740830400', `${body} `, sig)).to.equal(false);
    expect(verify(generateWebhookSecret(), '1740830400', body, sig)).to.equal(false);
  });

  it('uses Node’s HMAC-SHA256 correctly (Standard Webhooks published vector)', () => {
    // That spec keys with the base64-decoded secret and signs `id.timestamp.body`; the primitive is the same.
    const key = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64');
    const mac = createHmac('sha256', key)
      .update('msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314}')
      .digest('base64');
    expect(mac).to.equal('g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('sends the spec headers plus a stable event id', () => {
    const secret = generateWebhookSecret();
    const eventId = randomUUID();
    const h = webhookHeaders({
      secret,
      body: '{}',
      event: 'refund.failed',
      eventId,
      isTest: false,
      timestampSeconds: 42,
    });
    expect(h).to.include({
      'Content-Type': 'application/json',
      [WebhookHeaders.Event]: 'refund.failed',
      [WebhookHeaders.Timestamp]: '42',
      [WebhookHeaders.Test]: 'false',
      [WebhookHeaders.EventId]: eventId,
    });
    expect(verify(secret, '42', '{}', h[WebhookHeaders.Signature]!)).to.equal(true);
    expect(h['User-Agent']).to.match(/^StablePay-Webhooks\//);
  });
});

describe('webhook secrets at rest', () => {
  const kek = randomBytes(32);

  it('are whsec_ + 32 random bytes in padded standard base64 (what Standard Webhooks decodes)', () => {
    const a = generateWebhookSecret();
    expect(a).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).to.have.length(32);
    expect(Buffer.from(a.slice(6), 'base64').toString('base64')).to.equal(a.slice(6));
    expect(generateWebhookSecret()).to.not.equal(a);
  });

  it('seal with AES-256-GCM and open again, never containing the plaintext', () => {
    const id = randomUUID();
    const secret = generateWebhookSecret();
    const sealed = sealSecret(secret, kek, id);
    expect(sealed).to.match(/^v1\./);
    expect(sealed).to.not.include(secret.slice(6));
    expect(sealSecret(secret, kek, id)).to.not.equal(sealed); // fresh nonce each time
    expect(openSecret(sealed, kek, id)).to.equal(secret);
  });

  it('refuse a wrong key, another endpoint’s row and a tampered ciphertext', () => {
    const id = randomUUID();
    const sealed = sealSecret(generateWebhookSecret(), kek, id);
    expect(() => openSecret(sealed, randomBytes(32), id)).to.throw(SecretUnavailableError);
    expect(() => openSecret(sealed, kek, randomUUID())).to.throw(SecretUnavailableError);
    const parts = sealed.split('.');
    const ct = Buffer.from(parts[3]!, 'base64url');
    ct[0] = ct[0]! ^ 1;
    parts[3] = ct.toString('base64url');
    expect(() => openSecret(parts.join('.'), kek, id)).to.throw(SecretUnavailableError);
    expect(() => openSecret('garbage', kek, id)).to.throw(SecretUnavailableError);
  });
});
