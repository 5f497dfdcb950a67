import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { SigningKeys } from '../../src/webhooks/signing-keys.js';
import { SecretUnavailableError, generateWebhookSecret, sealSecret } from '../../src/webhooks/secrets.js';
import { signWebhook } from '../../src/webhooks/signature.js';

const body = '{"event":"payment.completed","data":{"amount":"1.000000"}}';
const expected = (secret: string, ts: number) =>
  `sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`;

describe('endpoint signing keys', () => {
  const kek = randomBytes(32);

  it('sign exactly as the secret string does, and are opened once per sealed secret', () => {
    const keys = new SigningKeys(kek);
    const endpointId = randomUUID();
    const secret = generateWebhookSecret();
    const sealed = sealSecret(secret, kek, endpointId);
    const key = keys.keyFor(endpointId, sealed);
    expect(signWebhook(key, 1740830400, body)).to.equal(expected(secret, 1740830400));
    expect(keys.keyFor(endpointId, sealed)).to.equal(key);
  });

  it('follow a regenerated secret: a new sealed value is opened again', () => {
    const keys = new SigningKeys(kek);
    const endpointId = randomUUID();
    const before = generateWebhookSecret();
    keys.keyFor(endpointId, sealSecret(before, kek, endpointId));
    const after = generateWebhookSecret();
    const key = keys.keyFor(endpointId, sealSecret(after, kek, endpointId));
    expect(signWebhook(key, 1740830400, body)).to.equal(expected(after, 1740830400));
    expect(signWebhook(key, 1740830400, body)).not.to.equal(expected(before, 1740830400));
  });

  it('refuse what does not open, every time, and keep at most `max` keys', () => {
    const keys = new SigningKeys(kek, 2);
    const endpointId = randomUUID();
    const foreign = sealSecret(generateWebhookSecret(), randomBytes(32), endpointId);
    expect(() => keys.keyFor(endpointId, foreign)).to.throw(SecretUnavailableError);
    expect(() => keys.keyFor(endpointId, foreign)).to.throw(SecretUnavailableError);
    // Another endpoint's ciphertext does not open under this endpoint's id either.
    const other = randomUUID();
    const sealedForOther = sealSecret(generateWebhookSecret(), kek, other);
    expect(() => keys.keyFor(endpointId, sealedForOther)).to.throw(SecretUnavailableError);

    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const sealed = ids.map((id) => sealSecret(generateWebhookSecret(), kek, id));
    const first = keys.keyFor(ids[0]!, sealed[0]!);
    keys.keyFor(ids[1]!, sealed[1]!);
    keys.keyFor(ids[2]!, sealed[2]!); // drops the oldest
    expect(keys.keyFor(ids[0]!, sealed[0]!)).not.to.equal(first);
  });
});
