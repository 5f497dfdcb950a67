import { fillPlaceholders, type Language } from '@stablepay/contracts/shared/languages';
import { en, type Messages } from './i18n/en.js';

/**
 * The page's words in English, German, French, Spanish and Italian: the languages of the invoices.
 * The language is the `lang` parameter, else the browser's first supported language, else English.
 * English is built in; every other catalogue is its own small file, loaded only by the customers who
 * read it, so that the page does not carry four languages nobody on it reads.
 */
export type { Messages };
export { LANGUAGE_NAMES, pickLanguage, type Language } from '@stablepay/contracts/shared/languages';

export const LANGUAGES: Record<Language, () => Promise<Messages>> = {
  en: () => Promise.resolve(en),
  de: () => import('./i18n/de.js').then((m) => m.de),
  fr: () => import('./i18n/fr.js').then((m) => m.fr),
  es: () => import('./i18n/es.js').then((m) => m.es),
  it: () => import('./i18n/it.js').then((m) => m.it),
};

/** A language's catalogue; English when it cannot load (a deployment in the middle of an update). */
export const loadMessages = (lang: Language): Promise<Messages> => LANGUAGES[lang]().catch(() => en);

export type Translate = (key: keyof Messages, vars?: Record<string, string>) => string;

export const translator =
  (messages: Messages): Translate =>
  (key, vars = {}) =>
    fillPlaceholders(messages[key], vars);
