import { expect } from 'chai';
import { z } from 'zod';
import { ConfigError, baseConfigShape, envPort, loadConfig } from '../../src/config.js';
import { redact } from '../../src/logger.js';
import {
  internalTokenSigner,
  internalTokenVerifier,
  signInternalToken,
  verifyInternalToken,
} from '../../src/auth/internal-token.js';
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

  it('signs once per claims for a quarter of the lifetime, then anew', () => {
    let now = Date.now();
    const sign = internalTokenSigner(secret, 60, () => now);
    const merchant = { caller: 'api_key' as const, merchantId: '6f1c3c1e-8d0b-4a57-9c3e-0e2a4b7f9a10' };
    const first = sign({ caller: 'public' });
    expect(sign({ caller: 'public' })).to.equal(first);
    const forMerchant = sign(merchant);
    expect(forMerchant).to.not.equal(first);
    expect(verifyInternalToken(secret, forMerchant)).to.deep.include(merchant);
    now += 14_999;
    expect(sign({ caller: 'public' })).to.equal(first);
    // Signed at most 15 s ago, a reused token always has 45 s of its 60 left.
    now += 1_001;
    const renewed = sign({ caller: 'public' });
    const issuedAt = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).iat as number;
    expect(issuedAt(renewed) - issuedAt(first)).to.be.within(15, 16);
    expect(verifyInternalToken(secret, renewed)).to.deep.include({ caller: 'public' });
  });

  it('accepts a token it verified until the second of its expiry, and never one it refused', () => {
    let now = Date.now();
    const verify = internalTokenVerifier(secret, () => now);
    const token = signInternalToken(secret, { caller: 'public' }, 60);
    const exp = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).exp as number;
    expect(verify(token)).to.deep.include({ caller: 'public' });
    now = exp * 1000 - 1;
    expect(verify(token)).to.deep.include({ caller: 'public' });
    now = exp * 1000;
    expect(() => verify(token)).to.throw();
    now = Date.now();
    const forged = signInternalToken('o'.repeat(40), { caller: 'public' });
    expect(() => verify(forged)).to.throw();
    expect(() => verify(forged)).to.throw();
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(() => verify(tampered)).to.throw();
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
