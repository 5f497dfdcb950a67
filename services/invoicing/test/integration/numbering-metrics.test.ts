import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricValue, scrapeMetrics, waitFor } from '@stablepay/platform/testing';
import { startHarness, type Harness } from '../support/harness.js';

const FEED = (day: string, usd: string) =>
  `<?xml version="1.0"?><gesmes:Envelope><Cube><Cube time='${day}'><Cube currency='USD' rate='${usd}'/></Cube></Cube></gesmes:Envelope>`;

/**
 * Invoice numbering held up for real: with EUR_RATE_SOURCE=ecb and the feed (a real HTTP server)
 * down, no rate exists for the day, so the invoice of a completing withdrawal cannot be issued and
 * the completion is retried until the feed answers.
 */
describe('invoice numbering health at /metrics (PostgreSQL + RabbitMQ)', function () {
  this.timeout(60_000);
  let h: Harness;
  let feed: Server;
  let document: string | undefined;

  before(async () => {
    feed = createServer((_req, res) => {
      if (document === undefined) res.writeHead(503).end('down');
      else res.writeHead(200, { 'content-type': 'text/xml' }).end(document);
    });
    await new Promise<void>((r) => feed.listen(0, '127.0.0.1', r));
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

  const scrape = () => scrapeMetrics(h.url);

  it('shows the withdrawal waiting for its invoice, its age and the failed issues, until it is numbered', async () => {
    const idle = await scrape();
    expect(metricValue(idle, 'withdrawals_unfinished')).to.equal(0);
    expect(metricValue(idle, 'withdrawals_oldest_unfinished_seconds')).to.equal(0);
    expect(metricValue(idle, 'invoice_issue_failures_total')).to.equal(0);
    expect(metricValue(idle, 'invoices_pdf_pending')).to.equal(0);

    const m = h.merchant({ USDC: '1000' });
    const w = await h.withdraw(m, { amount: '100' });
    expect(metricValue(await scrape(), 'withdrawals_unfinished')).to.equal(1);
    await h.complete(m, w.id);

    // The first attempt and the retry a second later both fail to issue the invoice.
    const stuck = await waitFor(
      async () => {
        const text = await scrape();
        return metricValue(text, 'invoice_issue_failures_total') >= 2 && text;
      },
      15_000,
      'failed issues counted',
    );
    expect(metricValue(stuck, 'withdrawals_unfinished')).to.equal(1);
    const waited = metricValue(stuck, 'withdrawals_oldest_unfinished_seconds');
    expect(waited).to.be.above(0);
    expect(await h.db('invoices').where({ withdrawal_id: w.id })).to.have.length(0);
    expect((await h.db('withdrawals').where({ id: w.id }).first()).status).to.not.equal('completed');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(metricValue(await scrape(), 'withdrawals_oldest_unfinished_seconds')).to.be.at.least(waited + 1);

    // The feed answers: the next retry issues the invoice, and nothing waits any more.
    document = FEED(new Date().toISOString().slice(0, 10), '1.25');
    const invoice = await h.waitForInvoice(m, w.id);
    expect(invoice.invoice_number).to.match(/^INV-\d{4}-0001$/);
    const done = await scrape();
    expect(metricValue(done, 'withdrawals_unfinished')).to.equal(0);
    expect(metricValue(done, 'withdrawals_oldest_unfinished_seconds')).to.equal(0);
    expect(metricValue(done, 'invoices_pdf_pending')).to.equal(0);
    expect(metricValue(done, 'invoices_oldest_pdf_pending_seconds')).to.equal(0);
    // Failures stay counted; the retry that succeeded added none.
    expect(metricValue(done, 'invoice_issue_failures_total')).to.be.at.least(
      metricValue(stuck, 'invoice_issue_failures_total'),
    );
  });
});
