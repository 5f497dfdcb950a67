import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { EventDataInput } from '@stablepay/contracts';
import { INTERNAL_TOKEN_HEADER, verifyInternalToken } from '@stablepay/platform';
import { TEST_INTERNAL_SECRET, waitFor } from '@stablepay/platform/testing';
import { startHarness, type Harness } from '../support/harness.js';
import { SmtpSink } from '../support/smtp.js';

const PDF = Buffer.from('%PDF-1.3\n% an invoice\n');

/**
 * A real HTTP server in the invoicing service's place: it serves invoice PDFs on the internal route
 * to a service token only, and can be made to fail.
 */
class InvoicePdfServer {
  private server?: Server;
  url = '';
  status = 200;
  requests = 0;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.requests++;
      let caller: string | undefined;
      try {
        caller = verifyInternalToken(
          TEST_INTERNAL_SECRET,
          String(req.headers[INTERNAL_TOKEN_HEADER] ?? ''),
        ).caller;
      } catch {
        caller = undefined;
      }
      const match = /^\/internal\/invoices\/([^/]+)\/pdf$/.exec(req.url ?? '');
      if (caller !== 'service' || !match) {
        res.writeHead(401).end();
        return;
      }
      if (this.status !== 200) {
        res.writeHead(this.status, { 'content-type': 'application/json' }).end('{"success":false}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(PDF);
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server?.close(() => r()));
  }
}

const invoiceIssued = (merchantId: string, over: Partial<EventDataInput<'invoice.issued'>> = {}) => {
  const invoiceId = randomUUID();
  return {
    invoiceId,
    merchantId,
    withdrawalId: randomUUID(),
    invoiceNumber: 'INV-2026-0007',
    grossAmount: '100.000000',
    serviceFee: '0.500000',
    serviceFeeEur: '0.46',
    taxAmount: '0.079832',
    netAmount: '99.500000',
    currency: 'USDC' as const,
    blockchain: 'BASE' as const,
    taxCase: 'domestic' as const,
    language: 'en' as const,
    pdfUrl: `${merchantId}/2026/INV-2026-0007.pdf`,
    fileName: 'INV-2026-0007.pdf',
    rectifiesInvoiceId: null,
    issuedAt: new Date().toISOString(),
    ...over,
  };
};

describe('the invoice e-mail with its PDF attached (real SMTP server)', function () {
  this.timeout(30_000);
  let h: Harness;
  let smtp: SmtpSink;
  let pdfs: InvoicePdfServer;

  before(async () => {
    smtp = await SmtpSink.start();
    pdfs = await new InvoicePdfServer().start();
    h = await startHarness({ env: { SMTP_URL: smtp.url, INVOICING_URL: pdfs.url } });
  });
  after(async () => {
    await h?.close();
    await smtp?.close();
    await pdfs?.close();
  });

  it('sends the merchant one e-mail per invoice, however often invoice.issued arrives', async () => {
    const email = 'owner@invoiced.example.test';
    const merchantId = await h.merchant(email);
    const data = invoiceIssued(merchantId);
    await h.publish('invoice.issued', data, { producer: 'invoicing', merchantId, times: 3 });
    const [mail] = await smtp.waitForMessages(email, 1);
    await waitFor(async () => (await h.db('emails').where({ status: 'pending' })).length === 0);
    // A later invoice has been e-mailed: a duplicate of the first would have been sent by now.
    await h.publish(
      'invoice.issued',
      invoiceIssued(merchantId, { invoiceNumber: 'INV-2026-0008', fileName: 'INV-2026-0008.pdf' }),
      {
        producer: 'invoicing',
        merchantId,
      },
    );
    await smtp.waitForMessages(email, 2);
    expect(smtp.to(email).filter((m) => m.subject?.includes('INV-2026-0007'))).to.have.length(1);

    expect(mail!.subject).to.equal('Invoice INV-2026-0007: withdrawal fee 0.500000 USDC');
    expect(mail!.text).to.include('0.500000 USDC (0.46 EUR)').and.include(data.withdrawalId);
    expect(mail!.headers.get('x-stablepay-notification')).to.equal('invoice_issued');
    expect(mail!.attachments).to.have.length(1);
    expect(mail!.attachments[0]).to.include({
      filename: 'INV-2026-0007.pdf',
      contentType: 'application/pdf',
    });
    expect(mail!.attachments[0]!.content.equals(PDF)).to.equal(true);
  });

  it("writes the e-mail in the invoice's language, with its number format and the network by name", async () => {
    const email = 'inhaber@rechnung.example.test';
    const merchantId = await h.merchant(email);
    const data = invoiceIssued(merchantId, {
      language: 'de',
      invoiceNumber: 'INV-2026-0009',
      fileName: 'INV-2026-0009.pdf',
      grossAmount: '1234.500000',
    });
    await h.publish('invoice.issued', data, { producer: 'invoicing', merchantId });
    const [mail] = await smtp.waitForMessages(email, 1);
    expect(mail!.subject).to.equal('Rechnung INV-2026-0009: Servicegebühr der Auszahlung 0,500000 USDC');
    expect(mail!.text)
      .to.include('Ihrer Auszahlung von 1.234,500000 USDC')
      .and.include('0,500000 USDC (0,46 EUR)')
      .and.include('Netzwerk')
      .and.include('Base')
      .and.not.include('BASE');
    expect(mail!.attachments[0]).to.include({ filename: 'INV-2026-0009.pdf' });
  });

  it('waits while the invoicing service cannot hand out the PDF, and sends when it can', async () => {
    const email = 'patient@invoiced.example.test';
    const merchantId = await h.merchant(email);
    pdfs.status = 503;
    const before = pdfs.requests;
    await h.publish('invoice.issued', invoiceIssued(merchantId, { rectifiesInvoiceId: randomUUID() }), {
      producer: 'invoicing',
      merchantId,
    });
    await waitFor(async () => pdfs.requests >= before + 2, 'two attempts');
    const row = await h.db('emails').where({ merchant_id: merchantId }).first();
    expect(row).to.include({ status: 'pending', template: 'invoice_issued' });
    expect(row.last_error).to.match(/invoicing answered 503/);
    pdfs.status = 200;
    const [mail] = await smtp.waitForMessages(email, 1);
    expect(mail!.subject).to.match(/^Corrective invoice INV-2026-0007/);
    expect(mail!.attachments).to.have.length(1);
  });

  it('gives up at once on an invoice the invoicing service does not know', async () => {
    const merchantId = await h.merchant('unknown-invoice@invoiced.example.test');
    pdfs.status = 404;
    try {
      await h.publish('invoice.issued', invoiceIssued(merchantId), { producer: 'invoicing', merchantId });
      const row = await waitFor(async () => {
        const r = await h.db('emails').where({ merchant_id: merchantId }).first();
        return r?.status === 'failed' ? r : undefined;
      });
      expect(row.attempts).to.equal(1);
    } finally {
      pdfs.status = 200;
    }
  });

  it('sends nothing for a merchant whose address it does not know', async () => {
    const event = await h.publish('invoice.issued', invoiceIssued(randomUUID()), {
      producer: 'invoicing',
    });
    await waitFor(() => h.db('inbox').where({ message_id: event.id }).first());
    expect(await h.db('emails').where({ event_id: event.id })).to.deep.equal([]);
  });
});
