import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { LANGUAGE_CODES, type Language, type PaymentWebhookData } from '@stablepay/contracts';
import type { RenderedEmail } from '../../src/mail/layout.js';
import { paymentData, refundData } from '../support/fixtures.js';
import {
  emailConfirmation,
  endpointDisabled,
  paymentReceipt,
  paymentReceived,
  refundCompleted,
  registrationAttempted,
  withdrawalAddressAdded,
  withdrawalAddressRemoved,
} from '../../src/mail/templates.js';

const merchantName = 'Ladenzeile GmbH';
const at = '2026-11-27T13:05:09.000Z';
const payment: PaymentWebhookData = paymentData(randomUUID(), {
  amount: '1234.500000',
  reference: 'ORD-77',
  metadata: null,
});
const address = {
  merchantId: randomUUID(),
  addressId: randomUUID(),
  label: 'Treasury',
  address: `0x${'3'.repeat(40)}`,
  userId: randomUUID(),
  stepUp: 'mfa' as const,
  usableFrom: at,
};

/** Every e-mail but the invoice's (its own test covers it), rendered in `language`. */
const everyEmail = (language: Language): Record<string, RenderedEmail> => ({
  paymentReceipt: paymentReceipt({ language, payment, merchantName, completedAt: at }),
  paymentReceived: paymentReceived({ language, payment, merchantName, completedAt: at }),
  refundCompleted: refundCompleted({
    language,
    refund: refundData(randomUUID(), payment.payment_id, { amount: '1234.500000' }),
    merchantName,
    completedAt: at,
  }),
  endpointDisabled: endpointDisabled({
    language,
    merchantName,
    endpointId: randomUUID(),
    url: 'https://hooks.example/in',
    failures: 10,
    lastError: 'HTTP 500',
    disabledAt: at,
  }),
  emailConfirmation: emailConfirmation({
    language,
    merchantName,
    link: 'https://dash.example/#/confirm-email?token=t',
    expiresAt: at,
  }),
  registrationAttempted: registrationAttempted({ language, merchantName, link: 'https://dash.example/#/' }),
  withdrawalAddressAdded: withdrawalAddressAdded({
    language,
    merchantName,
    address: { ...address, addedAt: at },
  }),
  withdrawalAddressRemoved: withdrawalAddressRemoved({
    language,
    merchantName,
    address: { ...address, removedAt: at },
  }),
});

/** English words that no sentence of the other four languages contains. */
const ENGLISH =
  /\b(the|your|was|were|and|of|is|with|has|you|this|been|payment|refund|withdrawal|address|sign|confirmed|disabled|removed|added)\b/i;

/** The text without the data it carries (links, hashes, API paths), where English may legitimately appear. */
const words = (m: RenderedEmail) =>
  [m.subject, m.text]
    .join('\n')
    .replace(/https?:\/\/\S+/g, '')
    .replace(/0x[0-9a-f]+/gi, '')
    .replace(/(PUT|POST) \/\S+/g, '')
    .replace(/\{"is_active": true\}/g, '');

const formats: Record<Language, { amount: string; date: string }> = {
  en: { amount: '1,234.500000 USDC', date: '2026-11-27 13:05 UTC' },
  de: { amount: '1.234,500000 USDC', date: '27.11.2026 13:05 UTC' },
  fr: { amount: '1\u00a0234,500000 USDC', date: '27/11/2026 13:05 UTC' },
  es: { amount: '1.234,500000 USDC', date: '27/11/2026 13:05 UTC' },
  it: { amount: '1.234,500000 USDC', date: '27/11/2026 13:05 UTC' },
};

describe("e-mails in the reader's language", () => {
  for (const language of LANGUAGE_CODES) {
    it(`write every e-mail in ${language}, every placeholder filled, figures in its format`, () => {
      for (const [name, m] of Object.entries(everyEmail(language))) {
        const where = `${name} (${language})`;
        for (const part of [m.subject, m.text, m.html]) {
          expect(part, where).not.to.match(/\{\w+\}|\bundefined\b|\bnull\b|\bNaN\b|\[object/);
        }
        expect(m.html, where).to.include(`<html lang="${language}">`);
        expect(m.text, where).to.include(merchantName);
        if (language !== 'en') expect(words(m), where).not.to.match(ENGLISH);
        if (name !== 'registrationAttempted') expect(m.text, where).to.include(formats[language].date);
        if (/^payment|^refund/.test(name)) {
          expect(m.subject, where).to.include(formats[language].amount);
          expect(m.text, where).to.include(formats[language].amount);
        }
      }
    });
  }

  it('differ between languages in subject and body', () => {
    const rendered = LANGUAGE_CODES.map(everyEmail);
    for (const name of Object.keys(rendered[0]!)) {
      const subjects = new Set(rendered.map((r) => r[name]!.subject));
      const headings = new Set(rendered.map((r) => r[name]!.text.split('\n')[0]));
      expect(subjects.size, name).to.equal(LANGUAGE_CODES.length);
      expect(headings.size, name).to.equal(LANGUAGE_CODES.length);
    }
  });

  it('give the link of a button as text in the reader’s language', () => {
    const de = everyEmail('de').emailConfirmation!;
    expect(de.html).to.include('Oder öffnen Sie diese Adresse: https://dash.example/');
    expect(de.html).to.include('E-Mail-Adresse bestätigen');
    expect(everyEmail('it').registrationAttempted!.html).to.include('Oppure apra questo indirizzo:');
  });
});
