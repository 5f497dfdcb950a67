import { fillPlaceholders, pickLanguage, type Language } from '@stablepay/contracts/shared/languages';
import { en, type Messages } from './i18n/en.js';

export { LANGUAGE_NAMES, pickLanguage, type Language } from '@stablepay/contracts/shared/languages';

export type { Messages };

/**
 * The dashboard's words. The language is the one the merchant chose (kept in localStorage: a
 * preference, not a secret), else the browser's first supported language, else English.
 *
 * English is in the bundle; every other catalogue is a chunk of its own, loaded when chosen, so a
 * merchant downloads the words of one language, not of five. Each is typed as `Messages`: a key
 * missing from one does not compile.
 */
const CATALOGUES = {
  en: async () => en,
  de: async () => (await import('./i18n/de.js')).de,
  fr: async () => (await import('./i18n/fr.js')).fr,
  es: async () => (await import('./i18n/es.js')).es,
  it: async () => (await import('./i18n/it.js')).it,
} satisfies Record<Language, () => Promise<Messages>>;

export const LANGUAGES = Object.keys(CATALOGUES) as Language[];

export interface Words {
  lang: Language;
  messages: Messages;
}

/** A language's catalogue; English when its chunk cannot be fetched (the words, not the page, fail). */
export const loadWords = async (lang: Language): Promise<Words> => {
  try {
    return { lang, messages: await CATALOGUES[lang]() };
  } catch {
    return { lang: 'en', messages: en };
  }
};

const LANG_KEY = 'dashboard.lang';

/** The language to open with: the merchant's earlier choice, else the browser's. */
export const startingLanguage = (): Language =>
  pickLanguage(localStorage.getItem(LANG_KEY), navigator.languages ?? []);

export const rememberLanguage = (lang: Language): void => localStorage.setItem(LANG_KEY, lang);

export type Translate = (key: keyof Messages, vars?: Record<string, string | number>) => string;

export const translator =
  (messages: Messages): Translate =>
  (key, vars = {}) =>
    fillPlaceholders(messages[key], vars);
