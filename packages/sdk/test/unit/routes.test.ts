import { expect } from 'chai';
import { routes } from '@stablepay/contracts';
import { Stablepay } from '../../src/index.js';

const ID = '00000000-0000-4000-8000-000000000001';

/** Every call the SDK can make, with what it sends, answered with an empty success. */
const everyCall = async (): Promise<Array<{ method: string; path: string }>> => {
  const seen: Array<{ method: string; path: string }> = [];
  const fetch = (async (url: string, init: RequestInit) => {
    seen.push({ method: String(init.method), path: new URL(url).pathname });
    const data = { total: 0, limit: 1, offset: 0, logs: [] };
    return new Response(JSON.stringify({ success: true, data }), {
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof globalThis.fetch;
  const sp = new Stablepay({ apiKey: 'k', baseUrl: 'https://gateway.test', fetch });
  await sp.payments.list();
  await sp.payments.retrieve(ID);
  await sp.checkout.sessions.create({ amount: '1', return_url: 'https://x.test' });
  await sp.checkout.sessions.retrieve(ID);
  await sp.checkout.sessions.list();
  await sp.refunds.create({ paymentId: ID, reason: 'other' });
  await sp.refunds.list();
  await sp.refunds.retrieve(ID);
  await sp.refunds.cancel(ID);
  await sp.webhookEndpoints.create({ url: 'https://x.test', events: ['payment.completed'] });
  await sp.webhookEndpoints.list();
  await sp.webhookEndpoints.retrieve(ID);
  await sp.webhookEndpoints.update(ID, {});
  await sp.webhookEndpoints.delete(ID);
  await sp.webhookEndpoints.regenerateSecret(ID);
  await sp.webhookEndpoints.test(ID);
  await sp.webhookEndpoints.logs(ID);
  await sp.events.list();
  await sp.events.types();
  await sp.balance.retrieve();
  await sp.invoices.list();
  await sp.invoices.pdf(ID);
  await sp.withdrawals.create({ currency: 'USDC', destination_address: '0x0' });
  await sp.withdrawals.list();
  await sp.withdrawals.retrieve(ID);
  await sp.balanceTransactions.list();
  return seen;
};

describe('@stablepay/node against the route catalogue', () => {
  it('calls only routes that exist, are served, and take an API key', async () => {
    const calls = await everyCall();
    expect(calls).to.have.length(26);
    for (const call of calls) {
      const sameMethod = routes.filter((r) => r.method.toUpperCase() === call.method);
      // A static path wins over a parameter (`/merchant-webhooks/api/events` is not `:id`), as in the gateway.
      const route =
        sameMethod.find((r) => r.path === call.path) ??
        sameMethod.find((r) => new RegExp(`^${r.path.replace(/:[A-Za-z]+/g, '[^/]+')}$`).test(call.path));
      expect(route, `${call.method} ${call.path}`).to.exist;
      expect(route!.auth, `${call.method} ${call.path}`).to.be.oneOf(['key', 'jwt_or_key']);
      expect(route!.planned, `${call.method} ${call.path}`).to.equal(undefined);
    }
  });
});
