import { expect } from 'chai';
import { waitFor, type EventObserver } from '@stablepay/platform/testing';
import { startHarness, type Harness } from '../support/harness.js';

const YEAR = new Date().getUTCFullYear();

describe('invoice numbers: gapless and never repeated (two replicas, PostgreSQL + RabbitMQ)', function () {
  this.timeout(120_000);
  let h: Harness;
  let observer: EventObserver;

  before(async () => {
    h = await startHarness();
    await h.startReplica();
    observer = await h.observe(['invoice.issued']);
  });
  after(async () => {
    await observer?.close();
    await h?.close();
  });

  it('numbers 50 withdrawals completing at once 1 to 50, one invoice and one invoice.issued each', async () => {
    const m = h.merchant({ USDC: '1000000' });
    const withdrawals: Array<{ id: string }> = [];
    for (let i = 0; i < 50; i++) withdrawals.push(await h.withdraw(m, { amount: String(10 + i) }));
    // Every confirmation at once: both replicas consume the queue and issue side by side.
    await Promise.all(
      withdrawals.flatMap((w) => [
        h.report(m, w.id, 'net', 'confirmed'),
        h.report(m, w.id, 'fee', 'confirmed'),
      ]),
    );
    const rows = await waitFor(
      async () => {
        const r = await h.db('invoices').whereNotNull('pdf_stored_at');
        return r.length >= 50 ? r : undefined;
      },
      'fifty invoices',
      60_000,
    );
    expect(rows).to.have.length(50);
    const sequences = rows.map((r) => Number(r.sequence)).sort((a, b) => a - b);
    expect(sequences).to.deep.equal(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.invoice_number)).size).to.equal(50);
    expect(new Set(rows.map((r) => r.withdrawal_id))).to.deep.equal(new Set(withdrawals.map((w) => w.id)));
    for (const r of rows)
      expect(r.invoice_number).to.equal(`INV-${YEAR}-${String(r.sequence).padStart(4, '0')}`);
    // A later number never carries an earlier date.
    const byNumber = [...rows].sort((a, b) => a.sequence - b.sequence);
    for (let i = 1; i < byNumber.length; i++)
      expect(byNumber[i].issued_at.getTime()).to.be.at.least(byNumber[i - 1].issued_at.getTime());
    await waitFor(async () => observer.messages.length >= 50, 'fifty invoice.issued', 30_000);
    expect(new Set(observer.messages.map((e) => e.data.invoiceId)).size).to.equal(50);
    expect(
      (await h.db('invoice_sequences').where({ prefix: 'INV', year: YEAR }).first()).last_value,
    ).to.equal(50);
  });
});

describe('invoice numbers per year', function () {
  this.timeout(30_000);
  let h: Harness;

  before(async () => {
    h = await startHarness({ INVOICE_PREFIX: 'FY' }, { now: () => new Date('2031-01-01T00:00:05Z') });
  });
  after(async () => h?.close());

  it('starts each year at 0001 under the year the invoice is issued in', async () => {
    await h.db('invoice_sequences').insert({ prefix: 'FY', year: 2030, last_value: 812 });
    const m = h.merchant();
    const w = await h.withdraw(m, { amount: '10' });
    await h.complete(m, w.id);
    const invoice = await h.waitForInvoice(m, w.id);
    expect(invoice.invoice_number).to.equal('FY-2031-0001');
    expect((await h.as(m, 'GET', '/invoices/api/list?year=2031')).body.data).to.have.length(1);
    expect((await h.db('invoice_sequences').where({ prefix: 'FY', year: 2030 }).first()).last_value).to.equal(
      812,
    );
  });
});
