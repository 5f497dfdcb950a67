import type { DocumentDefinition } from 'pdfmake';
import {
  baseUnitsToDecimal,
  blockchainDisplayName,
  decimalToBaseUnits,
  type InvoiceLanguage,
} from '@stablepay/contracts';
import { bpToPercent, feeByRate } from '../../amounts.js';
import type { InvoiceParty, InvoiceRecord } from '../records.js';
import { LABELS, formatDay, formatDecimal, trimZeros, type InvoiceLabels } from './labels.js';

/** The rate's source in the invoice's words; a source this build does not know, as stored. */
const rateSourceName = (l: InvoiceLabels, source: string): string =>
  (l.rateSources as Record<string, string>)[source] ?? source;
const GREY = '#5f6b7a';
const LINE = '#d5dae1';
const ACCENT = '#1f3a5f';

const minus = (a: string, b: string, decimals: number): string =>
  baseUnitsToDecimal(decimalToBaseUnits(a, decimals) - decimalToBaseUnits(b, decimals), decimals);

/** A country as the invoice's language names it: "Deutschland", "Allemagne". */
const countryName = (code: string, language: InvoiceLanguage): string =>
  new Intl.DisplayNames([language], { type: 'region' }).of(code) ?? code;

/** Name, address, country, then the VAT number (or, without one, the tax number). */
const partyBlock = (title: string, p: InvoiceParty, { l, language }: Writing) => {
  const taxId = p.vatNumber
    ? `${l.vatNumber} ${p.vatNumber}`
    : p.taxNumber
      ? `${l.taxNumber} ${p.taxNumber}`
      : undefined;
  return {
    stack: [
      { text: title.toUpperCase(), style: 'caption' },
      { text: p.name, bold: true, margin: [0, 2, 0, 0] },
      ...p.addressLines.map((line) => ({ text: line })),
      ...(p.country ? [{ text: countryName(p.country, language) }] : []),
      ...(taxId ? [{ text: taxId, margin: [0, 2, 0, 0] }] : []),
      ...(p.email ? [{ text: p.email, color: GREY }] : []),
    ],
  };
};

const keyValues = (rows: Array<[string, string]>, opts: { mono?: boolean } = {}) => ({
  table: {
    widths: [150, '*'],
    body: rows.map(([k, v]) => [
      { text: k, color: GREY },
      { text: v, fontSize: opts.mono ? 8 : 9 },
    ]),
  },
  layout: 'noBorders',
});

/** The tax note under the totals: the legal mention, or how the VAT was decided. */
const taxNote = (i: InvoiceRecord, l: InvoiceLabels): string | undefined => {
  switch (i.taxCase) {
    case 'reverse_charge':
      return l.reverseCharge;
    case 'outside_scope':
      return l.outsideScope;
    case 'eu_consumer':
      return l.euConsumer(i.vatCountry ?? '');
    default:
      return i.customer.country === null ? l.domesticUnknownCustomer : undefined;
  }
};

/** How this invoice writes numbers, amounts and days: in its language. */
interface Writing {
  language: InvoiceLanguage;
  l: InvoiceLabels;
  num: (v: string) => string;
  token: (v: string) => string;
  day: (d: Date | string) => string;
}

const writingOf = (i: InvoiceRecord): Writing => {
  const num = (v: string) => formatDecimal(v, i.language);
  return {
    language: i.language,
    l: LABELS[i.language],
    num,
    token: (v) => `${num(v)} ${i.currency}`,
    day: (d) => formatDay(typeof d === 'string' ? d : d.toISOString().slice(0, 10), i.language),
  };
};

const right = { alignment: 'right' };

/**
 * A fee above what the rate charges is the minimum fee: the line says so, rather than a percentage
 * that does not add up to the amount beside it.
 */
const feeLineOf = (i: InvoiceRecord, { l, num, token }: Writing): string => {
  const feePercent = num(trimZeros(baseUnitsToDecimal(decimalToBaseUnits(i.feeRate), 4)));
  const byRate = feeByRate(decimalToBaseUnits(i.grossAmount), i.feeRate);
  return decimalToBaseUnits(i.serviceFee) > byRate
    ? l.minimumFeeLine(feePercent, token(i.grossAmount), token(baseUnitsToDecimal(byRate)))
    : l.feeLine(feePercent, token(i.grossAmount));
};

/** The seller's name and the title, over a rule. */
const heading = (i: InvoiceRecord, title: string) => [
  {
    columns: [
      { text: i.seller.name, fontSize: 16, bold: true, color: ACCENT },
      { text: title.toUpperCase(), fontSize: 20, bold: true, alignment: 'right', color: ACCENT },
    ],
  },
  { canvas: [{ type: 'line', x1: 0, y1: 8, x2: 495, y2: 8, lineWidth: 1.5, lineColor: ACCENT }] },
];

/** Seller, customer, and the invoice's number and dates side by side. */
const partiesAndDates = (i: InvoiceRecord, w: Writing) => {
  const { l, day } = w;
  return {
    columns: [
      partyBlock(l.seller, i.seller, w),
      partyBlock(l.customer, i.customer, w),
      {
        width: 170,
        table: {
          widths: ['auto', '*'],
          body: [
            [
              { text: l.number, color: GREY },
              { text: i.invoiceNumber, bold: true, ...right },
            ],
            [
              { text: l.issueDate, color: GREY },
              { text: day(i.issuedAt), ...right },
            ],
            [
              { text: l.supplyDate, color: GREY },
              { text: day(i.withdrawalCompletedAt), ...right },
            ],
          ],
        },
        layout: 'noBorders',
      },
    ],
    columnGap: 16,
    margin: [0, 18, 0, 0],
  };
};

/** The fee, its part net of VAT, the VAT and the total, in the token and in EUR. */
const amountsTable = (i: InvoiceRecord, w: Writing) => {
  const { l, num, token } = w;
  const vatPercent = num(trimZeros(bpToPercent(i.taxRateBp)));
  const amountRow = (label: string, tokenAmount: string, eur: string, bold = false) => [
    { text: label, bold },
    { text: token(tokenAmount), ...right, bold },
    { text: `${num(eur)} EUR`, ...right, bold },
  ];
  return {
    margin: [0, 22, 0, 0],
    table: {
      headerRows: 1,
      widths: ['*', 110, 80],
      body: [
        [
          { text: l.description, style: 'caption' },
          { text: i.currency, style: 'caption', ...right },
          { text: 'EUR', style: 'caption', ...right },
        ],
        amountRow(feeLineOf(i, w), i.serviceFee, i.serviceFeeEur),
        amountRow(l.netOfVat, minus(i.serviceFee, i.taxAmount, 6), minus(i.serviceFeeEur, i.taxAmountEur, 2)),
        amountRow(l.vat(vatPercent), i.taxAmount, i.taxAmountEur),
        amountRow(l.total, i.serviceFee, i.serviceFeeEur, true),
      ],
    },
    layout: {
      hLineWidth: (row: number, node: { table: { body: unknown[] } }) =>
        row === 0 || row === 1 || row === node.table.body.length - 1 || row === node.table.body.length
          ? 0.8
          : 0,
      vLineWidth: () => 0,
      hLineColor: () => LINE,
      paddingTop: () => 5,
      paddingBottom: () => 5,
      paddingLeft: () => 0,
      paddingRight: () => 0,
    },
  };
};

/** Under the amounts: the tax mention, the EUR rate used, and that the fee is paid. */
const settlementNotes = (i: InvoiceRecord, { l, num, day }: Writing) => {
  const note = taxNote(i, l);
  return [
    ...(note ? [{ text: note, margin: [0, 10, 0, 0], bold: i.taxCase === 'reverse_charge' }] : []),
    {
      text: l.rate(i.currency, num(i.eurRate), rateSourceName(l, i.eurRateSource), day(i.eurRateDate)),
      color: GREY,
      margin: [0, 6, 0, 0],
    },
    { text: l.paid, color: GREY, margin: [0, 2, 0, 0] },
  ];
};

/** The withdrawal the fee was charged on, with both transaction hashes. */
const withdrawalSection = (i: InvoiceRecord, { l, token }: Writing) => [
  { text: l.withdrawal, style: 'heading' },
  keyValues([
    [l.withdrawalId, i.withdrawalId],
    [l.withdrawn, token(i.grossAmount)],
    [l.delivered, token(i.netAmount)],
    [l.network, blockchainDisplayName(i.blockchain)],
  ]),
  keyValues(
    [
      [l.destination, i.destinationAddress],
      [l.netTransfer, i.netTxHash],
      [l.feeTransfer, i.feeTxHash],
    ],
    { mono: true },
  ),
];

/**
 * The invoice as a pdfmake document: seller and customer, number and dates, the fee with its VAT
 * (or the legal mention that replaces it), in the token and in EUR at the recorded rate, and the
 * withdrawal it was charged on with both transaction hashes. Everything comes from the invoice row.
 */
export const invoiceDocument = (i: InvoiceRecord): DocumentDefinition => {
  const w = writingOf(i);
  const title = i.rectifiesInvoiceId ? w.l.rectifyingTitle : w.l.title;
  return {
    pageSize: 'A4',
    pageMargins: [50, 50, 50, 60],
    defaultStyle: { font: 'Roboto', fontSize: 9.5, lineHeight: 1.25, color: '#1b1f24' },
    info: {
      title: `${title} ${i.invoiceNumber}`,
      author: i.seller.name,
      subject: `${title} ${i.invoiceNumber}`,
      creationDate: i.issuedAt,
      modDate: i.issuedAt,
    },
    styles: {
      caption: { fontSize: 7.5, bold: true, color: GREY, characterSpacing: 0.6 },
      heading: { fontSize: 11, bold: true, color: ACCENT, margin: [0, 18, 0, 6] },
    },
    footer: (page: number, pages: number) => ({
      columns: [
        { text: `${i.seller.name} · ${i.invoiceNumber}`, color: GREY },
        { text: w.l.page(page, pages), alignment: 'right', color: GREY },
      ],
      fontSize: 7.5,
      margin: [50, 20, 50, 0],
    }),
    content: [
      ...heading(i, title),
      partiesAndDates(i, w),
      ...(i.rectifiesInvoiceNumber
        ? [
            {
              text: w.l.rectifies(i.rectifiesInvoiceNumber, i.rectificationReason ?? ''),
              margin: [0, 14, 0, 0],
              bold: true,
            },
          ]
        : []),
      amountsTable(i, w),
      ...settlementNotes(i, w),
      ...withdrawalSection(i, w),
    ],
  };
};
