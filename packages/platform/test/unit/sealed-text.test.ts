import { expect } from 'chai';
import { openText, sealText } from '../../src/auth/sealed-text.js';

const current = 'c'.repeat(32);
const previous = 'p'.repeat(32);

describe('sealed text', () => {
  it('opens under the secret that sealed it, also as the previous one during a rotation', () => {
    const link = 'https://dash.example/#/confirm-email?token=abc.def';
    const sealed = sealText(previous, link);
    expect(sealed)
      .to.match(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/)
      .and.not.include('abc.def');
    expect(sealText(previous, link)).not.to.equal(sealed);
    expect(openText([current, previous], sealed)).to.equal(link);
  });

  it('refuses text that another secret sealed, that was altered, or that is not sealed', () => {
    const sealed = sealText('x'.repeat(32), 'secret link');
    expect(() => openText([current, undefined], sealed)).to.throw(/none of the secrets/);
    const [v, iv, body, tag] = sealed.split('.') as [string, string, string, string];
    const flipped = `${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}`;
    expect(() => openText(['x'.repeat(32)], [v, iv, flipped, tag].join('.'))).to.throw();
    expect(() => openText([current], 'https://plain.example/')).to.throw(/not sealed/);
  });
});
