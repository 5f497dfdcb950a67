import { expect } from 'chai';
import { base32Decode, base32Encode, matchTotp, otpauthUrl, stepAt, totpCode } from '../../src/mfa/totp.js';

describe('TOTP (RFC 6238)', () => {
  // RFC 6238 appendix B, SHA-1, truncated to 6 digits as authenticator apps show them.
  const secret = Buffer.from('12345678901234567890', 'ascii');
  const vectors: Array<[number, string]> = [
    [59, '287082'],
    [1111111109, '081804'],
    [1111111111, '050471'],
    [1234567890, '005924'],
    [2000000000, '279037'],
  ];

  it('computes the RFC test vectors', () => {
    for (const [seconds, code] of vectors) expect(totpCode(secret, stepAt(seconds * 1000))).to.equal(code);
  });

  it('accepts one step of drift either way, and never a step at or before the last one used', () => {
    const now = 1234567890_000;
    const step = stepAt(now);
    expect(matchTotp(secret, totpCode(secret, step - 1), now, undefined)).to.equal(step - 1);
    expect(matchTotp(secret, totpCode(secret, step + 1), now, undefined)).to.equal(step + 1);
    expect(matchTotp(secret, totpCode(secret, step + 2), now, undefined)).to.equal(undefined);
    expect(matchTotp(secret, totpCode(secret, step), now, step)).to.equal(undefined);
    expect(matchTotp(secret, totpCode(secret, step + 1), now, step)).to.equal(step + 1);
  });

  it('round-trips base32 (RFC 4648) and writes the otpauth URI apps scan', () => {
    expect(base32Encode(Buffer.from('foobar'))).to.equal('MZXW6YTBOI');
    expect(base32Decode('mzxw6ytboi').toString()).to.equal('foobar');
    expect(base32Decode(base32Encode(secret))).to.deep.equal(secret);
    expect(otpauthUrl('Stablepay', 'a@b.example', 'MZXW6YTBOI')).to.equal(
      'otpauth://totp/Stablepay:a%40b.example?secret=MZXW6YTBOI&issuer=Stablepay&algorithm=SHA1&digits=6&period=30',
    );
  });
});
