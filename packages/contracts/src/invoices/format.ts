import type { InvoiceLanguage } from './billing.js';

/*
 * Numbers and days as an invoice's language writes them, from the decimal text and the ISO day: the
 * invoice PDF and the e-mail that carries it say the same figures the same way.
 */

const SEPARATORS: Record<InvoiceLanguage, { group: string; decimal: string }> = {
  en: { group: ',', decimal: '.' },
  de: { group: '.', decimal: ',' },
  // A no-break space: the one text tools (search, copy) read as a space, unlike the narrow one.
  fr: { group: '\u00a0', decimal: ',' },
  es: { group: '.', decimal: ',' },
  it: { group: '.', decimal: ',' },
};

/** "1234.500000" → "1,234.500000" (en), "1.234,500000" (de): from the decimal text, never a float. */
export const formatDecimal = (value: string, language: InvoiceLanguage): string => {
  const { group, decimal } = SEPARATORS[language];
  const [whole, fraction] = value.split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return fraction === undefined ? grouped : `${grouped}${decimal}${fraction}`;
};

/** A UTC day: ISO in English, day.month.year (de) or day/month/year elsewhere. */
export const formatDay = (day: string, language: InvoiceLanguage): string => {
  const [y, m, d] = day.split('-');
  if (language === 'en') return day;
  return language === 'de' ? `${d}.${m}.${y}` : `${d}/${m}/${y}`;
};

/** A moment, to the minute in UTC, its day as `formatDay` writes it: "2026-11-27 13:05 UTC" (en), "27.11.2026 13:05 UTC" (de). */
export const formatTimestamp = (iso: string, language: InvoiceLanguage): string => {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const [day, time] = at.toISOString().split('T');
  return `${formatDay(day!, language)} ${time!.slice(0, 5)} UTC`;
};
