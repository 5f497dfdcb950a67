import { expect } from 'chai';
import { waitFor } from '@stablepay/platform/testing';
import { merchantData, paymentData, refundData } from '../support/fixtures.js';
import { smtpSuite } from '../support/smtp.js';

/**
 * Each reader in their language, over a real SMTP server: the customer in the checkout page's (carried
 * on payment.completed and kept for the refund's e-mail), the merchant in the one chosen in the
 * dashboard (merchant.settings_updated), English for whoever said nothing.
 */
describe("e-mails in the reader's language (PostgreSQL + RabbitMQ + SMTP)", function () {
  this.timeout(30_000);
  const suite = smtpSuite();

  const handled = (messageId: string) =>
    waitFor(() => suite.h.db('inbox').where({ message_id: messageId }).first());
  const chooseLanguage = async (merchantId: string, version: number, language: 'fr' | 'it' | null) =>
    handled(
      (
        await suite.h.publish('merchant.settings_updated', {
          merchantId,
          version,
          name: 'Acme Shop',
          accentColor: null,
          logoUrl: null,
          networkFeeBearer: null,
          language,
        })
      ).id,
    );

  it("sends a German customer's receipt and refund in German, a French merchant's notice in French", async () => {
    const merchantEmail = 'boutique@acme.example.test';
    const merchantId = await suite.h.merchant(merchantEmail);
    await chooseLanguage(merchantId, 1, 'fr');
    const payment = {
      ...paymentData(merchantId, { customer_email: 'kunde@example.de', amount: '1234.500000' }),
      customer_language: 'de' as const,
    };
    await suite.h.publish('payment.completed', payment);
    const [receipt] = await suite.smtp.waitForMessages('kunde@example.de', 1);
    const [notice] = await suite.smtp.waitForMessages(merchantEmail, 1);

    expect(receipt!.subject).to.equal('Beleg: 1.234,500000 USDC an Acme Shop bezahlt');
    expect(receipt!.text)
      .to.include('Ihre Zahlung von 1.234,500000 USDC an Acme Shop ist bestätigt.')
      .and.include('Zahlungs-ID')
      .and.not.include('Payment ID');
    expect(receipt!.html).to.include('<html lang="de">');
    expect(notice!.subject).to.equal('Paiement reçu\u00a0: 1\u00a0234,500000 USDC');
    expect(notice!.text)
      .to.include('crédité sur votre portefeuille')
      .and.include('Identifiant du paiement')
      .and.not.include('Payment received');

    // The refund's e-mail speaks the language the receipt did: the payment's, kept with its customer.
    await suite.h.publish(
      'refund.completed',
      refundData(merchantId, payment.payment_id, { amount: '3.250000' }),
    );
    const mails = await suite.smtp.waitForMessages('kunde@example.de', 2);
    const refund = mails.find((m) => m.subject !== receipt!.subject)!;
    expect(refund.subject).to.equal('Erstattung gesendet: 3,250000 USDC');

    // The merchant goes back to English (null): the next notice is in English.
    await chooseLanguage(merchantId, 2, null);
    await suite.h.publish(
      'payment.completed',
      paymentData(merchantId, { customer_email: 'buyer@example.com' }),
    );
    const [, english] = await suite.smtp.waitForMessages(merchantEmail, 2);
    expect(english!.subject).to.match(/^Payment received: /);
    const [plain] = await suite.smtp.waitForMessages('buyer@example.com', 1);
    expect(plain!.subject).to.match(/^Receipt: /);
  });

  it("keeps the merchant's language when merchant.created is delivered again", async () => {
    const merchantEmail = 'negozio@acme.example.test';
    const merchantId = await suite.h.merchant(merchantEmail);
    await chooseLanguage(merchantId, 1, 'it');
    await handled((await suite.h.publish('merchant.created', merchantData(merchantId, merchantEmail))).id);
    await suite.h.publish(
      'payment.completed',
      paymentData(merchantId, { customer_email: 'cliente@example.it' }),
    );
    const [notice] = await suite.smtp.waitForMessages(merchantEmail, 1);
    expect(notice!.subject).to.match(/^Pagamento ricevuto: /);
  });
});
