import { expect } from 'chai';
import { eurPerUsd, parseEcbDaily, parseTransferKey, transferKey } from '../../src/index.js';

describe('transfer keys of a withdrawal', () => {
  it('name the withdrawal and the transfer, and read back', () => {
    const id = '0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f';
    expect(transferKey(id, 'net')).to.equal(`withdrawal:${id}:net`);
    expect(parseTransferKey(transferKey(id, 'fee'))).to.deep.equal({ withdrawalId: id, leg: 'fee' });
    for (const bad of [
      id,
      `withdrawal:${id}`,
      `withdrawal:${id}:tip`,
      `refund:${id}:net`,
      'withdrawal:x:net',
    ])
      expect(parseTransferKey(bad), bad).to.equal(undefined);
  });
});

describe('the ECB daily reference rates', () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <Cube><Cube time='2025-01-31'><Cube currency='USD' rate='1.0393'/><Cube currency='JPY' rate='160.59'/></Cube></Cube>
</gesmes:Envelope>`;

  it('reads the day and the USD rate', () => {
    expect(parseEcbDaily(xml)).to.deep.equal({ date: '2025-01-31', usdPerEur: '1.0393' });
    expect(parseEcbDaily('<Cube time="2025-01-31"></Cube>')).to.equal(undefined);
  });

  it('turns USD per EUR into EUR per USD(C), exactly to 6 decimals', () => {
    expect(eurPerUsd('1.0393')).to.equal('0.962186');
    expect(eurPerUsd('1')).to.equal('1.000000');
    expect(eurPerUsd('0.5')).to.equal('2.000000');
  });
});
