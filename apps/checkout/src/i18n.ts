import { en, type Messages } from './i18n/en.js';

/**
 * The page's words in English, German, French, Spanish and Italian: the languages of the invoices.
 * The language is the `lang` parameter, else the browser's first supported language, else English.
 * English is built in; every other catalogue is its own small file, loaded only by the customers who
 * read it, so that the page does not carry four languages nobody on it reads.
 */
export type { Messages };

export const LANGUAGES: Record<Language, () => Promise<Messages>> = {
  en: () => Promise.resolve(en),
  de: () => import('./i18n/de.js').then((m) => m.de),
  fr: () => import('./i18n/fr.js').then((m) => m.fr),
  es: () => import('./i18n/es.js').then((m) => m.es),
  it: () => import('./i18n/it.js').then((m) => m.it),
};
export type Language = 'en' | 'de' | 'fr' | 'es' | 'it';
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
};

export const pickLanguage = (asked: string | null, preferred: readonly string[]): Language => {
  for (const tag of [asked, ...preferred]) {
    const base = tag?.toLowerCase().split('-')[0];
    if (base && base in LANGUAGES) return base as Language;
  }
  return 'en';
};

/** A language's catalogue; English when it cannot load (a deployment in the middle of an update). */
export const loadMessages = (lang: Language): Promise<Messages> => LANGUAGES[lang]().catch(() => en);

export type Translate = (key: keyof Messages, vars?: Record<string, string>) => string;

export const translator =
  (messages: Messages): Translate =>
  (key, vars = {}) =>
    messages[key].replace(/\{(\w+)\}/g, (_, name: string) => vars[name] ?? `{${name}}`);
