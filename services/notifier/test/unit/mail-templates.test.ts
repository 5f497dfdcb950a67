import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { INVOICE_LANGUAGES, type InvoiceIssuedData, type PaymentWebhookData } from '@stablepay/contracts';
import { escapeHtml } from '../../src/mail/layout.js';
import {
  emailConfirmation,
  endpointDisabled,
  invoiceIssued,
  paymentReceipt,
  paymentReceived,
  refundCompleted,
  registrationAttempted,
} from '../../src/mail/templates.js';
import { messageIdDomain, messageIdFor } from '../../src/mail/message-ids.js';

const evil = `<script>alert("x")</script>&'`;
const payment: PaymentWebhookData = {
  payment_id: randomUUID(),
  amount: '12.500000',
  currency: 'USDC',
  status: 'completed',
  tx_hash: `0x${'ab'.repeat(32)}`,
  from_address: `0x${'1'.repeat(40)}`,
  to_address: `0x${'2'.repeat(40)}`,
  source_chain: 'BASE',
  destination_chain: null,
  is_cross_chain: false,
  customer_email: `buyer+${evil}@example.com`,
  reference: evil,
  metadata: null,
};

describe('e-mail templates', () => {
  it('escape every piece of merchant and customer data in the HTML part', () => {
    const messages = [
      paymentReceipt({
        payment,
        language: 'en',
        merchantName: evil,
        completedAt: '2025-03-01T12:00:00.000Z',
      }),
      paymentReceived({
        payment,
        language: 'en',
        merchantName: evil,
        completedAt: '2025-03-01T12:00:00.000Z',
      }),
      refundCompleted({
        refund: {
          refund_id: randomUUID(),
          payment_id: payment.payment_id,
          amount: '1.000000',
          currency: 'USDC',
          status: 'completed',
          destination_address: evil,
          blockchain: 'BASE',
          reason: 'other',
          tx_hash: null,
        },
        language: 'en',
        merchantName: evil,
        completedAt: '2025-03-01T12:00:00.000Z',
      }),
      endpointDisabled({
        language: 'en',
        merchantName: evil,
        endpointId: randomUUID(),
        url: `https://x.example/${evil}`,
        failures: 10,
        lastError: evil,
        disabledAt: '2025-03-01T12:00:00.000Z',
      }),
    ];
    for (const m of messages) {
      expect(m.html).to.not.include('<script>');
      expect(m.html).to.include('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
      expect(m.text).to.include(evil); // the text part is text
      expect(m.subject).to.not.match(/[\r\n]/);
    }
  });

  it('say what happened in the subject and the body', () => {
    const m = paymentReceipt({
      payment,
      language: 'en',
      merchantName: 'Shop',
      completedAt: '2025-03-01T12:00:00.000Z',
    });
    expect(m.subject).to.equal('Receipt: 12.500000 USDC paid to Shop');
    expect(m.text).to.include(payment.tx_hash!);
    expect(m.text).to.include(payment.payment_id);
    // The network as people call it, not the API's ticker-like id.
    expect(m.text).to.match(/\bBase\b/);
    expect(m.text).not.to.match(/\bBASE\b/);
    const crossChain = paymentReceived({
      payment: { ...payment, source_chain: 'MATIC', destination_chain: 'BASE', is_cross_chain: true },
      language: 'en',
      merchantName: 'Shop',
      completedAt: '2025-03-01T12:00:00.000Z',
    });
    expect(crossChain.text).to.include('Polygon PoS → Base');
    const notice = endpointDisabled({
      language: 'en',
      merchantName: 'Shop',
      endpointId: 'e1',
      url: 'https://x.example/hook',
      failures: 10,
      lastError: 'HTTP 500',
      disabledAt: '2025-03-01T12:00:00.000Z',
    });
    expect(notice.subject).to.equal('Webhook endpoint disabled after 10 consecutive failures');
    expect(notice.text).to.include('https://x.example/hook').and.include('HTTP 500').and.include('is_active');
  });

  it('cannot break the subject line with data', () => {
    const m = paymentReceipt({
      payment,
      language: 'en',
      merchantName: 'Shop\r\nBcc: victim@example.com',
      completedAt: 'x',
    });
    expect(m.subject).to.not.match(/[\r\n]/);
  });

  it('derive a stable Message-ID from the idempotency key', () => {
    expect(messageIdDomain('StablePay <no-reply@Pay.Example.com>')).to.equal('pay.example.com');
    expect(messageIdDomain('bare@mail.example')).to.equal('mail.example');
    expect(messageIdDomain('nobody')).to.equal('stablepay.local');
    const a = messageIdFor('pay.example', 'e1', 'payment_receipt', 'a@b.c');
    expect(a).to.match(/^<[0-9a-f]{40}@pay\.example>$/);
    expect(messageIdFor('pay.example', 'e1', 'payment_receipt', 'a@b.c')).to.equal(a);
    expect(messageIdFor('pay.example', 'e1', 'payment_received', 'a@b.c')).to.not.equal(a);
    expect(escapeHtml(`"'<>&`)).to.equal('&quot;&#39;&lt;&gt;&amp;');
  });
});

describe('account e-mail templates', () => {
  it('puts the confirmation link in the text as it is and in the HTML escaped, with the merchant name escaped', () => {
    const link = 'https://dash.example/#/confirm-email?token=id.secret&x="y"';
    const mail = emailConfirmation({
      language: 'en',
      merchantName: evil,
      link,
      expiresAt: '2030-01-01T00:00:00.000Z',
    });
    expect(mail.subject).to.equal('Confirm your e-mail address for StablePay');
    expect(mail.text).to.include(link).and.include(evil);
    expect(mail.html)
      .to.include(`href="${escapeHtml(link)}"`)
      .and.include(escapeHtml(evil))
      .and.not.include('<script>');
  });

  it('refuses a link that is not http(s), so no e-mail carries a javascript: link', () => {
    expect(() =>
      registrationAttempted({ language: 'en', merchantName: 'Shop', link: 'javascript:alert(1)' }),
    ).to.throw(/http\(s\)/);
    expect(
      registrationAttempted({ language: 'en', merchantName: 'Shop', link: 'https://dash.example/#/' }).text,
    ).to.include('No new account was created');
  });

  it("write the invoice's e-mail in each of the invoice's languages, corrective or not", () => {
    const invoice: InvoiceIssuedData = {
      invoiceId: randomUUID(),
      merchantId: randomUUID(),
      withdrawalId: randomUUID(),
      invoiceNumber: 'INV-2026-0042',
      grossAmount: '1234.500000',
      serviceFee: '6.172500',
      serviceFeeEur: '5.68',
      taxAmount: '0.985525',
      netAmount: '1228.327500',
      currency: 'USDC',
      blockchain: 'MATIC',
      taxCase: 'domestic',
      language: 'en',
      pdfUrl: 'm/2026/INV-2026-0042.pdf',
      fileName: 'INV-2026-0042.pdf',
      rectifiesInvoiceId: null,
      issuedAt: '2026-03-04T10:00:00.000Z',
    };
    const expected = {
      en: [
        'Invoice INV-2026-0042: withdrawal fee 6.172500 USDC',
        'withdrawal of 1,234.500000 USDC',
        'Corrective invoice',
      ],
      de: [
        'Rechnung INV-2026-0042: Servicegebühr der Auszahlung 6,172500 USDC',
        'von 1.234,500000 USDC',
        'Rechnungskorrektur',
      ],
      fr: [
        'Facture INV-2026-0042: frais de retrait 6,172500 USDC',
        'de 1\u00a0234,500000 USDC',
        'Facture rectificative',
      ],
      es: [
        'Factura INV-2026-0042: comisión de retirada 6,172500 USDC',
        'de 1.234,500000 USDC',
        'Factura rectificativa',
      ],
      it: [
        'Fattura INV-2026-0042: commissione di prelievo 6,172500 USDC',
        'di 1.234,500000 USDC',
        'Fattura di rettifica',
      ],
    } as const;
    for (const language of INVOICE_LANGUAGES) {
      const [subject, withdrawn, corrective] = expected[language];
      const m = invoiceIssued({ invoice: { ...invoice, language }, merchantName: 'Shop' });
      expect(m.subject, language).to.equal(subject);
      expect(m.text, language).to.include(withdrawn).and.include('Polygon PoS').and.not.include('MATIC');
      const c = invoiceIssued({
        invoice: { ...invoice, language, rectifiesInvoiceId: randomUUID() },
        merchantName: 'Shop',
      });
      expect(c.subject, language).to.match(new RegExp(`^${corrective} INV-2026-0042`));
    }
  });
});
