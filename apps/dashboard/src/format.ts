/**
 * Amounts arrive as decimal strings with six fraction digits ("12.500000") and are shown exactly,
 * grouped by the reader's locale, with at least two fraction digits and none lost; never through a
 * floating-point number.
 */
export const formatAmount = (amount: string, locale: string): string => {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!m) return amount;
  const frac = (m[3] ?? '').replace(/0+$/, '').padEnd(2, '0');
  const whole = new Intl.NumberFormat(locale).format(BigInt(m[2]!));
  const sep =
    new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  return `${m[1]}${whole}${sep}${frac}`;
};

/**
 * An amount with its currency, the one way money is written everywhere in the dashboard: the
 * locale's grouping and decimal sign, then the currency code ("1,234.50 USDC", "1.234,50 USDC").
 */
export const formatMoney = (amount: string, currency: string, locale: string): string =>
  `${formatAmount(amount, locale)} ${currency}`;

export const formatDateTime = (iso: string | null | undefined, locale: string): string =>
  iso
    ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
    : '—';

export const formatDate = (iso: string | null | undefined, locale: string): string =>
  iso ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(iso)) : '—';

/** 0x1234…abcd: enough to recognise a hash or an address, the whole value in its title. */
export const shortHex = (hex: string | null | undefined): string =>
  hex ? (hex.length > 14 ? `${hex.slice(0, 8)}…${hex.slice(-6)}` : hex) : '—';

/** Six-decimal exact amount from what a person typed ("12,5" or "12.5"); undefined when not one. */
export const parseAmountInput = (text: string): string | undefined => {
  const m = /^\s*(\d{1,7})(?:[.,](\d{0,6}))?\s*$/.exec(text);
  if (!m) return undefined;
  return `${BigInt(m[1]!)}.${(m[2] ?? '').padEnd(6, '0')}`;
};
