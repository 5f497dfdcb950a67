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
