import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { afterCommit } from '@stablepay/platform';
import { baseUnitsToDecimal, decimalToBaseUnits, type InvoiceLanguage } from '@stablepay/contracts';
import { findBillingProfile } from '../billing/billing-repo.js';
import { findMerchant } from '../projections/merchants-repo.js';
import { insertInvoice, nextSequence } from './invoices-repo.js';
import type { EurRate } from '../rates/eur-rates.js';
import { centsToDecimal, toEurCents, vatIncluded } from '../amounts.js';
import type { InvoicingContext } from '../context.js';
import type { InvoiceParty, InvoiceRecord } from './records.js';
import type { WithdrawalRecord } from '../withdrawals/records.js';
import { decideTax } from '../billing/tax.js';

/**
 * What an invoice is issued for: a completed withdrawal and the fee it took, in the invoice's own
 * terms (an invoice being rectified is its own basis).
 */
export type InvoiceBasis = Pick<
  InvoiceRecord,
  | 'merchantId'
  | 'withdrawalId'
  | 'currency'
  | 'blockchain'
  | 'grossAmount'
  | 'serviceFee'
  | 'netAmount'
  | 'feeRate'
  | 'destinationAddress'
  | 'netTxHash'
  | 'feeTxHash'
  | 'withdrawalCompletedAt'
>;

export const basisOfWithdrawal = (w: WithdrawalRecord): InvoiceBasis => ({
  merchantId: w.merchantId,
  withdrawalId: w.id,
  currency: w.currency,
  blockchain: w.blockchain,
  grossAmount: w.grossAmount,
  serviceFee: w.feeAmount,
  netAmount: w.netAmount,
  feeRate: w.feeRate,
  destinationAddress: w.destinationAddress,
  netTxHash: w.net.txHash!,
  feeTxHash: w.fee.txHash!,
  withdrawalCompletedAt: w.completedAt!,
});

/**
 * The customer as the billing profile says now; before the merchant saved one, the registered name
 * (and no country: the invoice then carries the seller's domestic VAT, and can be rectified once the
 * profile is known).
 */
const customerOf = async (
  trx: Knex.Transaction,
  merchantId: string,
): Promise<{ customer: InvoiceParty; language: InvoiceLanguage }> => {
  const profile = await findBillingProfile(trx, merchantId);
  if (profile) {
    return {
      customer: {
        name: profile.legalName,
        addressLines: [
          profile.addressLine1,
          ...(profile.addressLine2 ? [profile.addressLine2] : []),
          `${profile.postalCode} ${profile.city}`,
        ],
        country: profile.country,
        vatNumber: profile.vatNumber,
      },
      language: profile.language,
    };
  }
  const merchant = await findMerchant(trx, merchantId);
  return {
    customer: {
      name: merchant?.name ?? `Merchant ${merchantId}`,
      addressLines: [],
      country: null,
      vatNumber: null,
      email: merchant?.email ?? null,
    },
    language: 'en',
  };
};

export const invoiceNumber = (prefix: string, year: number, sequence: number): string =>
  `${prefix}-${year}-${String(sequence).padStart(4, '0')}`;

/**
 * Issues an invoice in the caller's transaction: customer and tax from the billing profile now, the
 * fee in EUR at the rate of the day the withdrawal completed (or the rate given: a rectification
 * keeps the original's), and the next number of the year last, so the sequence stays locked for as
 * short a time as possible, and dated after it. The PDF is rendered after commit (PDF worker or first download).
 */
const numberAndInsert = async (
  ctx: InvoicingContext,
  trx: Knex.Transaction,
  basis: InvoiceBasis,
  opts: { rate?: EurRate; rectifies?: InvoiceRecord; reason?: string } = {},
): Promise<InvoiceRecord> => {
  const year = ctx.now().getUTCFullYear();
  const { customer, language } = await customerOf(trx, basis.merchantId);
  const tax = decideTax(ctx.seller.country, customer);
  const rate = opts.rate ?? (await ctx.eurRates.rateFor(trx, basis.currency, basis.withdrawalCompletedAt));
  const feeUnits = decimalToBaseUnits(basis.serviceFee);
  const feeEurCents = toEurCents(feeUnits, rate.eurPerUnit);
  const sequence = await nextSequence(trx, ctx.invoicePrefix, year);
  const number = invoiceNumber(ctx.invoicePrefix, year, sequence);
  // Dated once the number is held: issuers wait for each other on the counter, so later numbers
  // never carry earlier dates. A wait across midnight of New Year keeps the number's year.
  const now = ctx.now();
  const issuedAt = now.getUTCFullYear() === year ? now : new Date(Date.UTC(year, 11, 31, 23, 59, 59, 999));
  const id = randomUUID();
  return insertInvoice(trx, {
    id,
    merchant_id: basis.merchantId,
    withdrawal_id: basis.withdrawalId,
    invoice_number: number,
    prefix: ctx.invoicePrefix,
    year,
    sequence,
    status: 'issued',
    issued_at: issuedAt,
    currency: basis.currency,
    blockchain: basis.blockchain,
    gross_amount: basis.grossAmount,
    service_fee: basis.serviceFee,
    net_amount: basis.netAmount,
    fee_rate: basis.feeRate,
    eur_rate: rate.eurPerUnit,
    eur_rate_date: rate.date,
    eur_rate_source: rate.source,
    service_fee_eur: centsToDecimal(feeEurCents),
    tax_case: tax.taxCase,
    tax_rate_bp: tax.rateBp,
    vat_country: tax.vatCountry,
    tax_amount: baseUnitsToDecimal(vatIncluded(feeUnits, tax.rateBp)),
    tax_amount_eur: centsToDecimal(vatIncluded(feeEurCents, tax.rateBp)),
    language,
    seller: JSON.stringify(ctx.seller),
    customer: JSON.stringify(customer),
    destination_address: basis.destinationAddress,
    net_tx_hash: basis.netTxHash,
    fee_tx_hash: basis.feeTxHash,
    withdrawal_completed_at: basis.withdrawalCompletedAt,
    rectifies_invoice_id: opts.rectifies?.id ?? null,
    rectification_reason: opts.reason ?? null,
    pdf_key: `${basis.merchantId}/${year}/${number}.pdf`,
  });
};

/** Issues an invoice in the caller's transaction (see numberAndInsert); failures are counted. */
export const issueInvoiceIn = async (
  ctx: InvoicingContext,
  trx: Knex.Transaction,
  basis: InvoiceBasis,
  opts: { rate?: EurRate; rectifies?: InvoiceRecord; reason?: string } = {},
): Promise<InvoiceRecord> => {
  try {
    const invoice = await numberAndInsert(ctx, trx, basis, opts);
    // Its PDF is rendered as soon as the issue commits, not at the worker's next poll.
    afterCommit(trx, ctx.invoicesIssued);
    return invoice;
  } catch (err) {
    // The caller's transaction rolls back: a completion is retried, a rectification answers an error.
    ctx.metrics.issueFailures.inc();
    throw err;
  }
};
