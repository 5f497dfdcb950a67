import { signInternalToken } from '@stablepay/platform';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { signAccessToken, verifyAccessToken } from '../../src/accounts/access-tokens.js';
import { refreshTokenDigest } from '../../src/accounts/tokens.js';
import { apiKeyDigest, generateApiKey, looksLikeApiKey } from '../../src/api-keys/key-format.js';
import { merchantPublicId, parseMerchantRef } from '../../src/merchants/merchant-ids.js';
import { createDecoyHash, hashPassword, verifyPassword } from '../../src/accounts/passwords.js';

const PEPPER = 'p'.repeat(40);
const SECRET = 's'.repeat(40);

describe('passwords (scrypt)', () => {
  it('stores the parameters with a salted hash and verifies', async () => {
    const hash = await hashPassword('correct horse battery staple', 10);
    expect(hash).to.match(/^scrypt\$10\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('correct horse battery staple', hash)).to.equal(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).to.equal(false);
    expect(await hashPassword('correct horse battery staple', 10)).not.to.equal(hash);
  });

  it('verifies hashes made with another cost (the parameters travel with the hash)', async () => {
    const cheap = await hashPassword('pw-of-another-era!', 8);
    expect(await verifyPassword('pw-of-another-era!', cheap)).to.equal(true);
  });

  it('uses N = 2^15 within raised memory limits', async () => {
    const hash = await hashPassword('production cost', 15);
    expect(hash.startsWith('scrypt$15$')).to.equal(true);
    expect(await verifyPassword('production cost', hash)).to.equal(true);
  });

  it('never verifies a malformed stored hash', async () => {
    for (const stored of ['', 'plain', 'scrypt$99$8$1$AA$AA', 'bcrypt$10$8$1$AA$AA']) {
      expect(await verifyPassword('x', stored)).to.equal(false);
    }
  });

  it('makes the decoy hash once', async () => {
    const decoy = createDecoyHash(8);
    expect(await decoy()).to.equal(await decoy());
  });
});

describe('API keys and refresh tokens', () => {
  it('generates <prefix>_<env>_<43 chars> keys with a peppered digest and last4', () => {
    const a = generateApiKey(PEPPER, 'sk', 'live');
    expect(a.key).to.match(/^sk_live_[A-Za-z0-9_-]{43}$/);
    expect(a.last4).to.equal(a.key.slice(-4));
    expect(a.digest).to.equal(apiKeyDigest(PEPPER, a.key));
    expect(a.digest).not.to.equal(apiKeyDigest('q'.repeat(40), a.key));
    expect(generateApiKey(PEPPER, 'sk', 'test').key).to.match(/^sk_test_/);
    expect(generateApiKey(PEPPER, 'sk', 'live').key).not.to.equal(a.key);
  });

  it('recognises the key shape before any lookup', () => {
    expect(looksLikeApiKey(generateApiKey(PEPPER, 'sk', 'live').key)).to.equal(true);
    for (const bad of [
      '',
      'sk_live_',
      'sk_prod_' + 'a'.repeat(43),
      'Bearer x',
      'sk_live_' + 'a'.repeat(200),
    ]) {
      expect(looksLikeApiKey(bad)).to.equal(false);
    }
  });

  it('digests refresh tokens with SHA-256', () => {
    expect(refreshTokenDigest('abc')).to.equal(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

describe('access tokens', () => {
  const claims = { userId: 'u-1', merchantId: 'm-1', merchantPublicId: 'sp_live_m-1' };

  it('round-trips user and merchant', () => {
    expect(verifyAccessToken(SECRET, signAccessToken(SECRET, claims, 60))).to.deep.equal(claims);
  });

  it('rejects another secret, an expired token, and an unsigned one', () => {
    const token = signAccessToken(SECRET, claims, 60);
    expect(() => verifyAccessToken('x'.repeat(40), token)).to.throw();
    const expired = jwt.sign(
      { typ: 'access', mid: 'm', mpid: 'p', exp: Math.floor(Date.now() / 1000) - 10 },
      SECRET,
      {
        subject: 'u',
        issuer: 'stablepay-gateway',
        audience: 'stablepay-dashboard',
      },
    );
    expect(() => verifyAccessToken(SECRET, expired)).to.throw();
    const unsigned = jwt.sign({ typ: 'access', mid: 'm', mpid: 'p' }, '', {
      algorithm: 'none',
      subject: 'u',
    });
    expect(() => verifyAccessToken(SECRET, unsigned)).to.throw();
  });

  it('does not accept an internal token as an access token, even under the same secret', () => {
    const internal = signInternalToken(SECRET, { caller: 'user', merchantId: 'm', userId: 'u' });
    expect(() => verifyAccessToken(SECRET, internal)).to.throw();
  });
});

describe('merchant ids', () => {
  const uuid = '0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f';

  it('builds the public id from the internal uuid', () => {
    expect(merchantPublicId('sp', 'live', uuid)).to.equal(`sp_live_${uuid}`);
  });

  it('parses public ids and internal uuids, and nothing else', () => {
    expect(parseMerchantRef(`sp_live_${uuid}`)).to.deep.equal({
      kind: 'public',
      publicId: `sp_live_${uuid}`,
    });
    expect(parseMerchantRef(uuid.toUpperCase())).to.deep.equal({ kind: 'internal', id: uuid });
    expect(parseMerchantRef('sp_live_nope')).to.equal(undefined);
    expect(parseMerchantRef("1' or 1=1")).to.equal(undefined);
  });
});
