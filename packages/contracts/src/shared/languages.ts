/*
 * The languages the product speaks to people: the invoices', the checkout page's and the
 * dashboard's, the same five everywhere. Browser-safe (no imports): the pages import this file
 * directly, without the schemas.
 */

/** Each language in its own words, as a language picker lists it. */
export const LANGUAGE_NAMES = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
} as const;

export type Language = keyof typeof LANGUAGE_NAMES;
export const LANGUAGE_CODES = Object.keys(LANGUAGE_NAMES) as [Language, ...Language[]];

/** The first of `asked` (a choice or a `lang` parameter) and the reader's preferred languages that is one of ours, else English. */
export const pickLanguage = (asked: string | null, preferred: readonly string[]): Language => {
  for (const tag of [asked, ...preferred]) {
    const base = tag?.toLowerCase().split('-')[0];
    if (base && Object.hasOwn(LANGUAGE_NAMES, base)) return base as Language;
  }
  return 'en';
};

/** A message with its `{name}` placeholders filled in; a placeholder without a value stays as it is. */
export const fillPlaceholders = (text: string, vars: Readonly<Record<string, string | number>>): string =>
  text.replace(/\{(\w+)\}/g, (_, name: string) =>
    vars[name] !== undefined ? String(vars[name]) : `{${name}}`,
  );
