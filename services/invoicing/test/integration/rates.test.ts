import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@stablepay/platform/testing';
import { startHarness, type Harness } from '../support/harness.js';

const FEED = (day: string, usd: string) =>
  `<?xml version="1.0"?><gesmes:Envelope><Cube><Cube time='${day}'><Cube currency='USD' rate='${usd}'/></Cube></Cube></gesmes:Envelope>`;

/** EUR_RATE_SOURCE=ecb against a real HTTP server serving the ECB's daily document. */
describe('EUR rates from the ECB feed (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let feed: Server;
  let document = '';
  const today = new Date().toISOString().slice(0, 10);

  before(async () => {
    feed = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end(document);
    });
    await new Promise<void>((r) => feed.listen(0, '127.0.0.1', r));
    document = FEED('2020-01-02', '1.25');
    h = await startHarness({
      EUR_RATE_SOURCE: 'ecb',
      ECB_RATES_URL: `http://127.0.0.1:${(feed.address() as AddressInfo).port}/eurofxref-daily.xml`,
      ECB_REFRESH_MS: '1000',
    });
  });
  after(async () => {
    await h?.close();
    await new Promise<void>((r) => feed.close(() => r()));
  });

  it('stores the published rate and values the fee at the latest one on or before the day', async () => {
    await waitFor(() => h.db('eur_rates').where({ rate_date: '2020-01-02' }).first());
    const m = h.merchant({ USDC: '1000', EURC: '1000' });
    const usdc = await h.withdraw(m, { amount: '1000' });
    await h.complete(m, usdc.id);
    const invoice = await h.waitForInvoice(m, usdc.id);
    // 5 USDC at 1 / 1.25 = 0.8 EUR per USDC
    expect(invoice.service_fee_eur).to.equal('4.000000');
    const row = await h.db('invoices').where({ id: invoice.id }).first();
    expect(row).to.include({ eur_rate_source: 'ecb', eur_rate_date: '2020-01-02', eur_rate: '0.800000' });

    const eurc = await h.withdraw(m, { amount: '1000', currency: 'EURC' });
    await h.complete(m, eurc.id);
    await h.waitForInvoice(m, eurc.id);
    const par = await h.db('invoices').where({ withdrawal_id: eurc.id }).first();
    expect(par).to.include({
      eur_rate_source: 'par',
      eur_rate: '1.000000',
      service_fee_eur: '5.00',
      eur_rate_date: today,
    });
  });
});
