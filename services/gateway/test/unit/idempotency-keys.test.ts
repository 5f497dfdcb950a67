import { expect } from 'chai';
import { IDEMPOTENCY_KEY_RE, idempotencyRecordKeys } from '../../src/perimeter/idempotency-keys.js';

const PEPPER = 'p'.repeat(40);
const scope = { caller: 'key:1', method: 'POST', path: '/checkout/sessions', key: 'order-1' };

describe('idempotency record keys', () => {
  it('identifies a record by caller, method, path and key', () => {
    const base = idempotencyRecordKeys(PEPPER, scope).lookupDigest;
    expect(idempotencyRecordKeys(PEPPER, { ...scope }).lookupDigest).to.equal(base);
    for (const change of [
      { caller: 'key:2' },
      { path: '/refunds/api/create' },
      { key: 'order-2' },
      { method: 'PUT' },
    ]) {
      expect(idempotencyRecordKeys(PEPPER, { ...scope, ...change }).lookupDigest).not.to.equal(base);
    }
    expect(idempotencyRecordKeys('q'.repeat(40), scope).lookupDigest).not.to.equal(base);
  });

  it('fingerprints request bodies with a keyed hash', () => {
    const keys = idempotencyRecordKeys(PEPPER, scope);
    const body = Buffer.from('{"password":"hunter2"}');
    expect(keys.requestHash(body)).to.equal(keys.requestHash(Buffer.from(body)));
    expect(keys.requestHash(body)).not.to.equal(keys.requestHash(Buffer.from('{}')));
    expect(idempotencyRecordKeys(PEPPER, { ...scope, key: 'other' }).requestHash(body)).not.to.equal(
      keys.requestHash(body),
    );
  });

  it('seals responses so that only the same key opens them', () => {
    const keys = idempotencyRecordKeys(PEPPER, scope);
    const plain = Buffer.from('{"key":"sk_live_secret"}');
    const sealed = keys.seal(plain);
    expect(sealed.includes(plain)).to.equal(false);
    expect(keys.open(sealed).equals(plain)).to.equal(true);
    expect(() => idempotencyRecordKeys(PEPPER, { ...scope, key: 'x' }).open(sealed)).to.throw();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] ^= 1;
    expect(() => keys.open(tampered)).to.throw();
  });

  it('accepts 1-255 visible ASCII characters as a key', () => {
    expect(IDEMPOTENCY_KEY_RE.test('a')).to.equal(true);
    expect(IDEMPOTENCY_KEY_RE.test('k'.repeat(255))).to.equal(true);
    for (const bad of ['', 'k'.repeat(256), 'with space', 'tab\t', 'é'])
      expect(IDEMPOTENCY_KEY_RE.test(bad)).to.equal(false);
  });
});
