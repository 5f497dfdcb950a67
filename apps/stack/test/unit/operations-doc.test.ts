import { expect } from 'chai';
import { currentReference, renderReference } from '../../../../scripts/config-reference.mjs';

describe('docs/operations.md', () => {
  it('its configuration reference is the one the services’ config schemas generate', async () => {
    const fresh = await renderReference();
    const { doc, start, end } = currentReference();
    expect(doc.slice(start, end), 'stale: run node scripts/config-reference.mjs').to.equal(fresh);
    for (const variable of [
      'JWT_SECRET',
      'WALLET_KEK',
      'WEBHOOK_SECRET_KEK',
      'FEE_QUOTE_SECRET',
      'TREASURY_ADDRESS',
    ])
      expect(fresh).to.match(new RegExp(`\\| \`${variable}\` \\| \\*\\*required\\*\\*`));
    expect(fresh).to.contain('### chain-watcher').and.contain('`SERVICE_ROLE`');
  });
});
