import { expect } from 'chai';
import { z } from 'zod';
import { ConfigError, baseConfigShape, envPort, loadConfig } from '../../src/config.js';
import { redact } from '../../src/logger.js';
import { signInternalToken, verifyInternalToken } from '../../src/auth/internal-token.js';
import { topicMatches } from '../../src/messaging/bus.js';

describe('configuration', () => {
  const schema = z.object({ ...baseConfigShape, PORT: envPort.default(8080) });

  it('applies defaults and coerces values', () => {
    const c = loadConfig(schema, { INTERNAL_TOKEN_SECRET: 'x'.repeat(32), PORT: '9000' });
    expect(c.PORT).to.equal(9000);
    expect(c.NODE_ENV).to.equal('development');
    expect(c.DATABASE_URL).to.equal(undefined);
  });

  it('fails fast naming every bad variable', () => {
    try {
      loadConfig(schema, { INTERNAL_TOKEN_SECRET: 'short', PORT: 'eighty' });
      expect.fail('should throw');
    } catch (err) {
      expect(err).to.be.instanceOf(ConfigError);
      const msg = (err as Error).message;
      expect(msg).to.contain('INTERNAL_TOKEN_SECRET');
      expect(msg).to.contain('PORT');
      expect(msg).to.not.contain('short');
    }
  });
});

describe('log redaction', () => {
  it('removes secrets at any depth and keeps the rest', () => {
    const out = redact({
      user: 'a@b.c',
      password: 'hunter2',
      nested: { apiKey: 'sk_live_x', headers: { authorization: 'Bearer t', 'x-api-key': 'k' }, ok: 1 },
      list: [{ secret: 's' }],
    });
    const text = JSON.stringify(out);
    for (const s of ['hunter2', 'sk_live_x', 'Bearer t', '"k"', '"s"']) expect(text).to.not.contain(s);
    expect(text).to.contain('a@b.c');
    expect((out as { nested: { ok: number } }).nested.ok).to.equal(1);
  });
});

describe('internal tokens', () => {
  const secret = 'i'.repeat(40);

  it('round-trips the caller and merchant', () => {
    const t = signInternalToken(secret, {
      caller: 'api_key',
      merchantId: '6f1c3c1e-8d0b-4a57-9c3e-0e2a4b7f9a10',
      apiKeyId: 'k1',
    });
    expect(verifyInternalToken(secret, t)).to.deep.include({ caller: 'api_key', apiKeyId: 'k1' });
  });

  it('rejects another secret, an expired token and a merchant caller without a merchant', () => {
    const t = signInternalToken(secret, { caller: 'public' });
    expect(() => verifyInternalToken('o'.repeat(40), t)).to.throw();
    const expired = signInternalToken(secret, { caller: 'public' }, -10);
    expect(() => verifyInternalToken(secret, expired)).to.throw();
    const noMerchant = signInternalToken(secret, { caller: 'user' });
    expect(() => verifyInternalToken(secret, noMerchant)).to.throw();
  });
});

describe('topic matching', () => {
  it('follows AMQP wildcard rules', () => {
    expect(topicMatches('payment.*', 'payment.completed')).to.equal(true);
    expect(topicMatches('payment.*', 'payment.a.b')).to.equal(false);
    expect(topicMatches('chain.cctp.#', 'chain.cctp.burn_verified')).to.equal(true);
    expect(topicMatches('#', 'anything.at.all')).to.equal(true);
    expect(topicMatches('refund.created', 'refund.completed')).to.equal(false);
  });
});
