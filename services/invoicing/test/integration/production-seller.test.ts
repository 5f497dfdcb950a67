import { expect } from 'chai';
import { startInvoicingProcess } from '../support/invoicing-process.js';

const SELLER = ['SELLER_NAME', 'SELLER_STREET', 'SELLER_POSTCODE', 'SELLER_CITY', 'SELLER_COUNTRY'];

describe('the invoicing service in production', function () {
  this.timeout(60_000);

  it('refuses to start without the seller every invoice names, naming each missing variable', async () => {
    const started = startInvoicingProcess({
      NODE_ENV: 'production',
      TREASURY_ADDRESS: '0x7e5f4552091a69125d5dfcb7b8c2659029395bdf',
      // Empty is unset: nothing inherited from the shell running the tests counts.
      ...Object.fromEntries([...SELLER, 'SELLER_VAT_NUMBER', 'SELLER_TAX_NUMBER'].map((k) => [k, ''])),
      SELLER_CITY: 'Berlin',
    });
    const refusal = await started.then(
      async (p) => {
        await p.stop();
        throw new Error('the service started');
      },
      (err: Error) => err.message,
    );
    expect(refusal).to.contain('invoicing process exited (1)').and.contain('Invalid configuration');
    for (const key of SELLER.filter((k) => k !== 'SELLER_CITY'))
      expect(refusal).to.contain(`${key}: is required in production`);
    expect(refusal).to.not.contain('SELLER_CITY');
    expect(refusal).to.contain('SELLER_VAT_NUMBER: is required in production, or SELLER_TAX_NUMBER');
  });
});
