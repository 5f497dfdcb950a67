import { expect } from 'chai';
import { CctpFeeInputsResponse, CctpFeeQuery, routeById } from '../../src/index.js';

describe('cross-chain fee quote contracts', () => {
  it('reads productPrice as a payment amount: canonical 6 decimals, 0.01 to 1,000,000, never rounded', () => {
    expect(CctpFeeQuery.parse({ destinationChain: 'BASE', productPrice: '12.5' })).to.deep.equal({
      destinationChain: 'BASE',
      productPrice: '12.500000',
    });
    expect(CctpFeeQuery.parse({ destinationChain: 'ARB', productPrice: '1000000' }).productPrice).to.equal(
      '1000000.000000',
    );
    for (const bad of ['0.009999', '1000000.000001', '1.0000001', '-1', '1e3', ' 5', '', 'ten']) {
      expect(CctpFeeQuery.safeParse({ destinationChain: 'BASE', productPrice: bad }).success, bad).to.equal(
        false,
      );
    }
    expect(CctpFeeQuery.safeParse({ destinationChain: 'DOGE', productPrice: '1' }).success).to.equal(false);
  });

  it('serves the quote (no longer planned), publicly and never cached', () => {
    const route = routeById('getCctpFee');
    expect(route).to.include({ auth: 'public', noStore: true, path: '/payments/cctp-fee' });
    expect((route as { planned?: string }).planned).to.equal(undefined);
  });

  it('describes the internal fee inputs with whole numbers as decimal strings', () => {
    const route = routeById('getCctpFeeInputs');
    expect(route).to.include({ auth: 'service', internal: true, service: 'chain-watcher' });
    const good = {
      success: true,
      data: {
        blockchain: 'BASE',
        chainId: 8453,
        gasPriceWei: '12000000',
        gasUnits: '265000',
        nativeToken: { symbol: 'ETH', decimals: 18, usdPrice: '3150.25', source: 'fixed' },
      },
    };
    expect(CctpFeeInputsResponse.safeParse(good).success).to.equal(true);
    for (const data of [
      { ...good.data, gasPriceWei: 12000000 },
      { ...good.data, gasPriceWei: '1.5' },
      { ...good.data, gasUnits: '-1' },
      { ...good.data, nativeToken: { ...good.data.nativeToken, usdPrice: '3e3' } },
    ]) {
      expect(CctpFeeInputsResponse.safeParse({ success: true, data }).success).to.equal(false);
    }
  });
});
